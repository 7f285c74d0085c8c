#include "FindReplaceDialog.hpp"

#include "CountedNoun.hpp"

#include <Qsci/qsciscintilla.h>

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace kw {

FindReplaceDialog::FindReplaceDialog(QsciScintilla* editor, QWidget* parent)
    : QDialog(parent)
    , editor_(editor)
{
    setWindowTitle(tr("Find and Replace"));
    findEdit_ = new QLineEdit(this);
    replaceEdit_ = new QLineEdit(this);
    caseBox_ = new QCheckBox(tr("Match case"), this);
    wordBox_ = new QCheckBox(tr("Whole words"), this);
    regexBox_ = new QCheckBox(tr("Regular expression"), this);
    status_ = new QLabel(this);
    auto* next = new QPushButton(tr("Find next"), this);
    next->setDefault(true);
    auto* one = new QPushButton(tr("Replace"), this);
    auto* all = new QPushButton(tr("Replace all"), this);
    // Names for tests and style sheets.
    findEdit_->setObjectName("findEdit");
    replaceEdit_->setObjectName("replaceEdit");
    caseBox_->setObjectName("matchCase");
    wordBox_->setObjectName("wholeWords");
    regexBox_->setObjectName("regularExpression");
    status_->setObjectName("findStatus");
    next->setObjectName("findNext");
    one->setObjectName("replaceOne");
    all->setObjectName("replaceAll");

    auto* grid = new QGridLayout(this);
    grid->addWidget(new QLabel(tr("Find:")), 0, 0);
    grid->addWidget(findEdit_, 0, 1);
    grid->addWidget(next, 0, 2);
    replaceRow_ = new QWidget(this);
    auto* row = new QHBoxLayout(replaceRow_);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Replace:")));
    row->addWidget(replaceEdit_);
    row->addWidget(one);
    row->addWidget(all);
    grid->addWidget(replaceRow_, 1, 0, 1, 3);
    auto* opts = new QHBoxLayout;
    opts->addWidget(caseBox_);
    opts->addWidget(wordBox_);
    opts->addWidget(regexBox_);
    grid->addLayout(opts, 2, 0, 1, 3);
    grid->addWidget(status_, 3, 0, 1, 3);

    // Return in the find field reaches the default button, Find next; a returnPressed
    // connection as well would find twice per key press.
    connect(next, &QPushButton::clicked, this, &FindReplaceDialog::findNext);
    connect(one, &QPushButton::clicked, this, &FindReplaceDialog::replaceOne);
    connect(all, &QPushButton::clicked, this, &FindReplaceDialog::replaceAll);
    // A match found under other terms, or in other text, is no longer one.
    connect(findEdit_, &QLineEdit::textChanged, this, &FindReplaceDialog::forgetMatch);
    for (QCheckBox* box : {caseBox_, wordBox_, regexBox_})
        connect(box, &QCheckBox::toggled, this, &FindReplaceDialog::forgetMatch);
    connect(editor_, &QsciScintilla::textChanged, this, &FindReplaceDialog::forgetMatch);
}

void FindReplaceDialog::showFind(bool withReplace)
{
    replaceRow_->setVisible(withReplace);
    if (editor_->hasSelectedText() && !editor_->selectedText().contains('\n'))
        findEdit_->setText(editor_->selectedText());
    show();
    raise();
    activateWindow();
    findEdit_->setFocus();
    findEdit_->selectAll();
}

std::pair<long, long> FindReplaceDialog::selectionRange() const
{
    return {editor_->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONSTART),
            editor_->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONEND)};
}

bool FindReplaceDialog::find(bool wrap)
{
    const bool found = editor_->findFirst(findEdit_->text(), regexBox_->isChecked(), caseBox_->isChecked(),
                                          wordBox_->isChecked(), wrap);
    if (found)
        match_ = selectionRange();
    else
        forgetMatch();
    return found;
}

bool FindReplaceDialog::findNext()
{
    const bool found = !findEdit_->text().isEmpty() && find(true);
    status_->setText(found ? QString() : tr("Not found"));
    return found;
}

void FindReplaceDialog::replaceOne()
{
    // replace() substitutes the match found last, with \1... references for a regex.
    if (match_.first >= 0 && selectionRange() == match_)
        editor_->replace(replaceEdit_->text());
    findNext();
}

int FindReplaceDialog::replaceAll()
{
    if (findEdit_->text().isEmpty())
        return 0;
    int count = 0;
    editor_->beginUndoAction();
    editor_->setCursorPosition(0, 0);
    // No wrap: each replacement moves forward, so the loop ends at the last match.
    while (find(false)) {
        const bool empty = match_.first == match_.second;
        editor_->replace(replaceEdit_->text());
        ++count;
        // An empty match (a regex such as "x*") does not move the search on by itself:
        // step past one character, or stop at the end, so the loop always ends.
        if (empty) {
            const long pos = editor_->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS);
            if (pos >= editor_->SendScintilla(QsciScintillaBase::SCI_GETLENGTH))
                break;
            editor_->SendScintilla(QsciScintillaBase::SCI_GOTOPOS,
                                   editor_->SendScintilla(QsciScintillaBase::SCI_POSITIONAFTER, pos));
        }
    }
    editor_->endUndoAction();
    status_->setText(countedNoun(count, tr("1 replacement"), tr("%1 replacements")));
    return count;
}

} // namespace kw
