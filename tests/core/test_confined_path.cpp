// The one path-confinement rule (ConfinedFolder::staysInside) on every case the
// include gate, the initialiser files and the job folders meet: climbing out with "..",
// absolute paths, root names, and ".." that comes back in. Symbolic links are judged
// after resolving (DocumentTrust.SymbolicLinkLeadingOutIsRefused).
#include "util/ConfinedFolder.hpp"

#include <gtest/gtest.h>

using kw::ConfinedFolder;

TEST(ConfinedPath, ARelativePathInsideItsFolderStaysInside)
{
    for (const char* p : {"a.h", "include/a.h", "./a.h", "a/./b.h", "a/../b.h", "a/b/../../c.h", "_files/0.npy", "."})
        EXPECT_TRUE(ConfinedFolder::staysInside(p)) << p;
}

TEST(ConfinedPath, ClimbingOutAbsolutePathsAndRootNamesDoNot)
{
    for (const char* p : {"", "..", "../a.h", "a/../../b.h", "./../a.h", "a/b/../../../c.h", "/etc/passwd", "/a.h",
                          "//server/share/a.h"})
        EXPECT_FALSE(ConfinedFolder::staysInside(p)) << p;
}

TEST(ConfinedPath, TheJobFoldersRuleIsTheSameAfterNormalising)
{
    // JobCodec and CheckJobFolder normalise first; the verdict must not change with it.
    for (const char* p : {"a/../b.h", "a/./b.h", "../a.h", "a/../../b.h", "/a.h", "x/y/../z.h"}) {
        const std::filesystem::path raw(p);
        EXPECT_EQ(ConfinedFolder::staysInside(raw), ConfinedFolder::staysInside(raw.lexically_normal())) << p;
    }
}
