// NotesPanel: a document's Markdown description under its title, rendered (headings,
// emphasis, lists, code, links that open outside), and a note when there is none.
#include "NotesPanel.hpp"
#include "qstring_printer.hpp"

#include "doc/DocumentReader.hpp"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QStringList>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
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

// The words of `b` that its lines break in the middle of.
QStringList wordsBroken(const QTextBlock& b)
{
    QStringList broken;
    const QString text = b.text();
    const QTextLayout* layout = b.layout();
    for (int i = 1; i < layout->lineCount(); ++i) {
        const int at = layout->lineAt(i).textStart();
        const QChar before = at > 0 ? text[at - 1] : QChar(' ');
        if (at < text.size() && !before.isSpace() && before != '-' && before != '/' && !text[at].isSpace())
            broken << text.left(at).section(' ', -1) + "|" + text.mid(at).section(' ', 0, 0);
    }
    return broken;
}

} // namespace

TEST(NotesPanel, HeadingsBreakBetweenWordsInALaptopsNotesColumn)
{
    // The notes column of the default layout at 1366x768 and at its narrowest.
    for (int width : {232, 180}) {
        for (const auto& e : std::filesystem::directory_iterator(KW_SAMPLES_DIR)) {
            if (e.path().extension() != ".kwb")
                continue;
            SCOPED_TRACE(e.path().filename().string() + " at " + std::to_string(width));
            const auto doc = kw::DocumentReader::readFile(e.path());
            NotesPanel notes;
            notes.resize(width, 600);
            notes.show();
            notes.setNotes(QString::fromStdString(doc.title), QString::fromStdString(doc.description));
            QCoreApplication::processEvents();
            notes.document()->setTextWidth(notes.viewport()->width());
            const qreal textLine = QFontMetricsF(notes.font()).height();
            for (QTextBlock b = notes.document()->begin(); b.isValid(); b = b.next()) {
                if (b.blockFormat().headingLevel() == 0)
                    continue;
                EXPECT_EQ(wordsBroken(b), QStringList()) << b.text().toStdString();
                EXPECT_GT(b.layout()->lineAt(0).height(), 1.1 * textLine)
                    << "still a heading: " << b.text().toStdString();
                EXPECT_LE(b.layout()->boundingRect().width(), notes.viewport()->width()) << b.text().toStdString();
            }
        }
    }
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
