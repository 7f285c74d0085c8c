// NotesPanel: a document's Markdown description under its title, rendered (headings,
// emphasis, lists, code, links that open outside), and a note when there is none.
#include "NotesPanel.hpp"

#include "doc/DocumentReader.hpp"

#include <QCoreApplication>
#include <QImage>
#include <QTextBlock>
#include <QTextDocument>
#include <QUrl>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>

using kw::NotesPanel;

TEST(NotesPanel, RendersTheTitleAndTheMarkdown)
{
    NotesPanel notes;
    notes.setNotes(
        "Add vectors",
        "Adds **two** vectors.\n\n## Try next\n\n- Change `n`.\n- Read [the guide](https://example.org/guide).\n");
    const QTextDocument* doc = notes.document();
    const QString plain = doc->toPlainText();
    EXPECT_TRUE(plain.startsWith("Add vectors")) << plain.toStdString();
    EXPECT_FALSE(plain.contains("**")) << "Markdown is rendered, not shown";
    EXPECT_FALSE(plain.contains("## ")) << plain.toStdString();
    EXPECT_TRUE(plain.contains("Adds two vectors."));
    EXPECT_TRUE(plain.contains("Change n."));

    // The title and "Try next" are headings; the list has two items.
    int headings = 0, listItems = 0;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        headings += b.blockFormat().headingLevel() > 0;
        listItems += b.textList() != nullptr;
    }
    EXPECT_EQ(headings, 2);
    EXPECT_EQ(listItems, 2);
    EXPECT_TRUE(doc->toHtml().contains("https://example.org/guide"));
    EXPECT_TRUE(notes.openExternalLinks());
    EXPECT_TRUE(notes.isReadOnly());
}

TEST(NotesPanel, SaysSoWhenADocumentHasNoDescription)
{
    NotesPanel notes;
    notes.setNotes("", "");
    EXPECT_EQ(notes.document()->toPlainText().trimmed(), "This document has no description.");
    notes.setNotes("Only a title", "");
    EXPECT_EQ(notes.document()->toPlainText().trimmed(), "Only a title");
}

TEST(NotesPanel, EverySamplesDescriptionRenders)
{
    int samples = 0;
    for (const auto& e : std::filesystem::directory_iterator(KW_SAMPLES_DIR)) {
        if (e.path().extension() != ".kwb")
            continue;
        SCOPED_TRACE(e.path().filename().string());
        const auto doc = kw::DocumentReader::readFile(e.path());
        NotesPanel notes;
        notes.setNotes(QString::fromStdString(doc.title), QString::fromStdString(doc.description));
        const QString plain = notes.document()->toPlainText();
        EXPECT_TRUE(plain.startsWith(QString::fromStdString(doc.title)));
        EXPECT_TRUE(plain.contains("Try next"));
        EXPECT_FALSE(plain.contains("## ")) << "headings are rendered";
        ++samples;
    }
    EXPECT_GE(samples, 13);
}

namespace {

std::filesystem::path notesFolder(const std::string& name)
{
    const auto d = std::filesystem::temp_directory_path()
        / ("kw_notes_" + std::to_string(QCoreApplication::applicationPid()) + "_" + name);
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d / "doc");
    return d;
}

bool showsImage(NotesPanel& notes, const QString& url)
{
    return notes.document()->resource(QTextDocument::ImageResource, QUrl(url)).canConvert<QImage>()
        && !notes.document()->resource(QTextDocument::ImageResource, QUrl(url)).value<QImage>().isNull();
}

} // namespace

TEST(NotesPanel, ShowsImagesOfTheDocumentsFolderOnly)
{
    const auto dir = notesFolder("images");
    QImage(4, 4, QImage::Format_RGB32).save(QString::fromStdString((dir / "doc" / "grid.png").string()));
    QImage(4, 4, QImage::Format_RGB32).save(QString::fromStdString((dir / "outside.png").string()));
    NotesPanel notes;
    notes.setNotes("Pictures", "![grid](grid.png)\n", dir / "doc");
    EXPECT_TRUE(showsImage(notes, "grid.png"));
    EXPECT_FALSE(showsImage(notes, "../outside.png"));
    EXPECT_FALSE(showsImage(notes, QString::fromStdString("file://" + (dir / "outside.png").string())));
    std::filesystem::create_symlink(dir / "outside.png", dir / "doc" / "link.png");
    EXPECT_FALSE(showsImage(notes, "link.png"));
    std::filesystem::remove_all(dir);
}

TEST(NotesPanel, ADeviceAFifoOrAHugeFileNeitherBlocksNorFloods)
{
    const auto dir = notesFolder("hostile");
    ASSERT_EQ(mkfifo((dir / "doc" / "pipe.png").c_str(), 0600), 0);
    std::filesystem::create_symlink("/dev/zero", dir / "doc" / "zero.png");
    {
        std::ofstream big(dir / "doc" / "big.png", std::ios::binary);
        big.seekp(NotesPanel::kMaxImageBytes + 1);
        big.put('\0');
    }
    NotesPanel notes;
    // Each of these hung or exhausted memory when the browser read what it was given.
    notes.setNotes("Hostile", "![](/dev/zero) ![](/dev/ptmx) ![](pipe.png) ![](zero.png) ![](big.png)\n", dir / "doc");
    for (const QString url : {"/dev/zero", "/dev/ptmx", "pipe.png", "zero.png", "big.png"})
        EXPECT_FALSE(showsImage(notes, url)) << url.toStdString();
    std::filesystem::remove_all(dir);
}
