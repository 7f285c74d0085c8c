#pragma once
// Find and replace in one editor (non-modal).
#include <QDialog>

#include <utility>

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
    std::pair<long, long> selectionRange() const;
    void forgetMatch() { match_ = {-1, -1}; }

    QsciScintilla* editor_;
    QLineEdit* findEdit_;
    QLineEdit* replaceEdit_;
    QCheckBox* caseBox_;
    QCheckBox* wordBox_;
    QCheckBox* regexBox_;
    QLabel* status_;
    QWidget* replaceRow_;
    // Byte range of the last match found: Replace acts only on a selection that is
    // still that match, so a selection the user made elsewhere is never overwritten.
    std::pair<long, long> match_{-1, -1};
};

} // namespace kw
