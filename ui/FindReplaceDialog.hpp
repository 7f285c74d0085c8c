#pragma once
// Find and replace in one editor (non-modal).
#include <QDialog>

class QCheckBox;
class QLineEdit;
class QLabel;
class QsciScintilla;

namespace kw {

class FindReplaceDialog : public QDialog {
    Q_OBJECT
public:
    FindReplaceDialog(QsciScintilla* editor, QWidget* parent = nullptr);
    void showFind(bool withReplace);

public slots:
    bool findNext();
    void replaceOne();
    int replaceAll();

private:
    bool find(bool wrap);

    QsciScintilla* editor_;
    QLineEdit* findEdit_;
    QLineEdit* replaceEdit_;
    QCheckBox* caseBox_;
    QCheckBox* wordBox_;
    QCheckBox* regexBox_;
    QLabel* status_;
    QWidget* replaceRow_;
};

} // namespace kw
