// CudaLexer: the editor colours CUDA's qualifiers as keywords, its built-in variables
// and intrinsics as a second keyword set (bold, in their own colour), and the rest as
// C++ does; the styles are read back from the editor after it has coloured the text.
#include "CudaLexer.hpp"

#include <Qsci/qsciscintilla.h>
#include <gtest/gtest.h>

#include <QSet>

using kw::CudaLexer;

namespace {

// The style Scintilla gave the first character of `word` in `text`.
int styleOf(QsciScintilla& editor, const QString& text, const QString& word)
{
    const QByteArray utf8 = text.toUtf8();
    const int at = int(utf8.indexOf(word.toUtf8()));
    if (at < 0)
        return -1;
    return int(editor.SendScintilla(QsciScintilla::SCI_GETSTYLEAT, at));
}

} // namespace

TEST(CudaLexer, QualifiersBuiltinsIntrinsicsAndCppAreStyledApart)
{
    QsciScintilla editor;
    auto* lexer = new CudaLexer(&editor);
    editor.setLexer(lexer);
    const QString text = "// the comment\n"
                         "__global__ void scale(float* x, int n)\n"
                         "{\n"
                         "    __shared__ float tile[256];\n"
                         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    __syncthreads();\n"
                         "    atomicAdd(x, 1.5f);\n"
                         "    printf(\"said %d\", plainName);\n"
                         "}\n";
    editor.setText(text);
    editor.SendScintilla(QsciScintilla::SCI_COLOURISE, 0, -1);

    for (const char* word : {"__global__", "__shared__", "void", "int", "float"})
        EXPECT_EQ(styleOf(editor, text, word), QsciLexerCPP::Keyword) << word;
    for (const char* word : {"blockIdx", "blockDim", "threadIdx", "__syncthreads", "atomicAdd"})
        EXPECT_EQ(styleOf(editor, text, word), QsciLexerCPP::KeywordSet2) << word;
    EXPECT_EQ(styleOf(editor, text, "the comment"), QsciLexerCPP::CommentLine);
    EXPECT_EQ(styleOf(editor, text, "256"), QsciLexerCPP::Number);
    EXPECT_EQ(styleOf(editor, text, "\"said"), QsciLexerCPP::DoubleQuotedString);
    EXPECT_EQ(styleOf(editor, text, "plainName"), QsciLexerCPP::Identifier);
    EXPECT_EQ(styleOf(editor, text, "scale"), QsciLexerCPP::Identifier) << "a kernel's own name is no keyword";

    // The second set stands out: its own colour, bold, unlike the first set.
    EXPECT_EQ(lexer->color(QsciLexerCPP::KeywordSet2), QColor("#7a1fa2"));
    EXPECT_TRUE(lexer->font(QsciLexerCPP::KeywordSet2).bold());
    EXPECT_NE(lexer->color(QsciLexerCPP::KeywordSet2), lexer->color(QsciLexerCPP::Keyword));
    EXPECT_STREQ(lexer->language(), "CUDA");
}

TEST(CudaLexer, KeywordListsHoldTheCudaWordsOnceInOneSet)
{
    CudaLexer lexer;
    const auto words = [&](int set) {
        const char* list = lexer.keywords(set);
        return list ? QString::fromLatin1(list).split(' ', Qt::SkipEmptyParts) : QStringList();
    };
    const QStringList one = words(1), two = words(2);
    for (const char* w : {"__global__", "__device__", "__host__", "__constant__", "__launch_bounds__", "template"})
        EXPECT_TRUE(one.contains(w)) << w;
    for (const char* w : {"gridDim", "warpSize", "__shfl_down_sync", "__ldg", "atomicMax"})
        EXPECT_TRUE(two.contains(w)) << w;
    for (const QString& w : one)
        EXPECT_FALSE(two.contains(w)) << w.toStdString() << " is in both sets";
    EXPECT_EQ(QSet<QString>(one.begin(), one.end()).size(), one.size()) << "no word twice in set 1";
    EXPECT_EQ(QSet<QString>(two.begin(), two.end()).size(), two.size()) << "no word twice in set 2";
}
