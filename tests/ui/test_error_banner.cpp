// ErrorBanner: information (a normal run's notes, a clean check) takes one line over the
// editor, elided, with all of it in the tooltip and in text(); an error wraps whole.
#include "ErrorBanner.hpp"
#include "qstring_printer.hpp"

#include <QLabel>
#include <QTest>
#include <gtest/gtest.h>

using kw::ErrorBanner;

namespace {
const QString longDetail = "sim: ran 3 of 10 timed repeats (531.4 ms per launch on the CPU; repeats are capped at "
                           "2 s); the first launch served as warm-up\nanother note that is also worth knowing";
}

TEST(ErrorBanner, InformationTakesOneLineAndKeepsAllOfItInItsTooltip)
{
    ErrorBanner banner;
    banner.resize(700, 200);
    banner.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&banner));
    banner.showInformation("Run finished", longDetail);
    QCoreApplication::processEvents();
    const int line = banner.label()->fontMetrics().lineSpacing();
    EXPECT_LT(banner.sizeHint().height(), 2 * line + 8) << "one line of text, with the frame's margins";
    EXPECT_LE(banner.label()->width(), banner.width()) << "the line is elided, not wider than the banner";
    EXPECT_TRUE(banner.label()->text().contains("Run finished"));
    EXPECT_TRUE(banner.label()->text().contains(QChar(0x2026))) << banner.label()->text();
    EXPECT_TRUE(banner.label()->toolTip().contains("another note that is also worth knowing"));
    EXPECT_TRUE(banner.text().contains("another note that is also worth knowing"));

    // Wider, more of the detail shows.
    const QString narrow = banner.label()->text();
    banner.resize(1900, 200);
    QCoreApplication::processEvents();
    EXPECT_GT(banner.label()->text().size(), narrow.size());
}

TEST(ErrorBanner, AnErrorWrapsWhole)
{
    ErrorBanner banner;
    banner.resize(700, 300);
    banner.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&banner));
    banner.showInformation("Run finished", longDetail);
    banner.showError("Kernel fault", longDetail);
    QCoreApplication::processEvents();
    const int line = banner.label()->fontMetrics().lineSpacing();
    EXPECT_GE(banner.label()->heightForWidth(banner.label()->width()), 3 * line);
    EXPECT_TRUE(banner.label()->text().contains("another note that is also worth knowing"));
    EXPECT_TRUE(banner.label()->toolTip().isEmpty());
}
