#include "FindReplaceDialog.hpp"

#include <Qsci/qsciscintilla.h>

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace kw {

FindReplaceDialog::FindReplaceDialog(QsciScintilla* editor, QWidget* parent)
    : QDialog(parent), editor_(editor)
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

    connect(next, &QPushButton::clicked, this, &FindReplaceDialog::findNext);
    connect(findEdit_, &QLineEdit::returnPressed, this, &FindReplaceDialog::findNext);
    connect(one, &QPushButton::clicked, this, &FindReplaceDialog::replaceOne);
    connect(all, &QPushButton::clicked, this, &FindReplaceDialog::replaceAll);
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

bool FindReplaceDialog::find(bool wrap)
{
    return editor_->findFirst(findEdit_->text(), regexBox_->isChecked(), caseBox_->isChecked(),
                              wordBox_->isChecked(), wrap);
}

bool FindReplaceDialog::findNext()
{
    const bool found = !findEdit_->text().isEmpty() && find(true);
    status_->setText(found ? QString() : tr("Not found"));
    return found;
}

void FindReplaceDialog::replaceOne()
{
    if (editor_->hasSelectedText() && editor_->selectedText().compare(
            findEdit_->text(), caseBox_->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive) == 0
        && !regexBox_->isChecked())
        editor_->replaceSelectedText(replaceEdit_->text());
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
        editor_->replace(replaceEdit_->text());
        ++count;
    }
    editor_->endUndoAction();
    status_->setText(tr("%n replacement(s)", nullptr, count));
    return count;
}

} // namespace kw
