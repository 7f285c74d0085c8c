#include "views/PtxHighlighter.hpp"

#include <QApplication>
#include <QPalette>

namespace kw {

PtxHighlighter::PtxHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document)
{
    auto fmt = [](const QColor& c, bool bold = false, bool italic = false) {
        QTextCharFormat f;
        f.setForeground(c);
        if (bold)
            f.setFontWeight(QFont::Bold);
        f.setFontItalic(italic);
        return f;
    };
    formats_[int(Kind::Directive)] = fmt(QColor(123, 31, 162), true);
    formats_[int(Kind::Type)] = fmt(QColor(0, 121, 107));
    formats_[int(Kind::Register)] = fmt(QColor(21, 101, 192));
    formats_[int(Kind::Number)] = fmt(QColor(191, 54, 12));
    formats_[int(Kind::Label)] = fmt(QColor(130, 119, 23), true);
    formats_[int(Kind::Comment)] = fmt(QColor(117, 117, 117), false, true);
    formats_[int(Kind::Instruction)]
        = fmt(QApplication::palette().color(QPalette::Text), true); // readable on any paper

    // Later rules win where they overlap.
    const QString types = QStringLiteral(
        "\\.(?:[busf](?:8|16|32|64)|f16x2|bf16x2|bf16|tf32|pred|v2|v4|v8|"
        "global|shared|local|const|param|tex|generic|align|ptr|rn|rz|rm|rp|rni|rzi|rmi|rpi|sat|ftz|"
        "approx|full|lo|hi|wide|uni|sync|aligned|cta|gpu|sys|relaxed|acquire|release|volatile|"
        "eq|ne|lt|le|gt|ge|x|y|z|w|nc|cg|ca|cs|wb|wt|lu|cv|to|add|min|max|and|or|xor|cas|exch|inc|dec)\\b");
    const QString directives
        = QStringLiteral("\\.(?:version|target|address_size|visible|extern|weak|entry|func|reg|file|loc|section|"
                         "maxntid|reqntid|minnctapersm|maxnreg|pragma|callprototype|calltargets|branchtargets)\\b");
    rules_ = {
        {QRegularExpression(QStringLiteral("^\\s*(?:@!?%\\w+\\s+)?[a-z][a-z0-9_]*")), Kind::Instruction},
        {QRegularExpression(types), Kind::Type},
        {QRegularExpression(directives), Kind::Directive},
        {QRegularExpression(QStringLiteral("\\b(?:0[xX][0-9a-fA-F]+|0[fFdD][0-9a-fA-F]+|\\d+(?:\\.\\d+)?)\\b")),
         Kind::Number},
        {QRegularExpression(QStringLiteral("%[A-Za-z_]\\w*(?:\\.[xyzw])?(?:<\\d+>)?")), Kind::Register},
        {QRegularExpression(QStringLiteral("^\\s*[$A-Za-z_][\\w$]*:")), Kind::Label},
        {QRegularExpression(QStringLiteral("//.*$")), Kind::Comment},
    };
}

QTextCharFormat PtxHighlighter::format(Kind kind) const { return formats_[int(kind)]; }

void PtxHighlighter::highlightBlock(const QString& text)
{
    for (const Rule& rule : rules_) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), formats_[int(rule.kind)]);
        }
    }
    // Block comments may span lines: state 1 means "inside /* */ at the end of the line".
    const QTextCharFormat& comment = formats_[int(Kind::Comment)];
    qsizetype start = previousBlockState() == 1 ? 0 : text.indexOf(QStringLiteral("/*"));
    setCurrentBlockState(0);
    while (start >= 0) {
        const qsizetype end
            = text.indexOf(QStringLiteral("*/"), start + (previousBlockState() == 1 && start == 0 ? 0 : 2));
        if (end < 0) {
            setFormat(int(start), int(text.size() - start), comment);
            setCurrentBlockState(1);
            break;
        }
        setFormat(int(start), int(end + 2 - start), comment);
        start = text.indexOf(QStringLiteral("/*"), end + 2);
    }
}

} // namespace kw
