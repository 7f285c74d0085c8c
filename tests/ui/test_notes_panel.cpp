// NotesPanel: a document's Markdown description under its title, rendered (headings,
// emphasis, lists, code, links that open outside), and a note when there is none.
#include "NotesPanel.hpp"

#include "doc/DocumentReader.hpp"

#include <QTextBlock>
#include <QTextDocument>
#include <gtest/gtest.h>

#include <filesystem>

using kw::NotesPanel;

TEST(NotesPanel, RendersTheTitleAndTheMarkdown)
{
    NotesPanel notes;
    notes.setNotes("Add vectors", "Adds **two** vectors.\n\n## Try next\n\n- Change `n`.\n- Read [the guide](https://example.org/guide).\n");
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
