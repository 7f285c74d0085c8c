#pragma once
// Colours PTX: directives (.entry, .reg, .param...), state spaces and types (.f32,
// .shared...), registers (%r1, %tid.x), numbers, labels and comments (// and /* */).
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <vector>

namespace kw {

class PtxHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit PtxHighlighter(QTextDocument* document);

    enum class Kind { Directive, Type, Register, Number, Label, Comment, Instruction };
    QTextCharFormat format(Kind kind) const;

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule {
        QRegularExpression pattern;
        Kind kind;
    };
    std::vector<Rule> rules_;
    QTextCharFormat formats_[7];
};

} // namespace kw
