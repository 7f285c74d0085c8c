#pragma once
// C++ highlighting plus CUDA's qualifiers, built-in variables and intrinsics.
#include <Qsci/qscilexercpp.h>

namespace kw {

class CudaLexer : public QsciLexerCPP {
    Q_OBJECT
public:
    explicit CudaLexer(QObject* parent = nullptr);
    const char* language() const override { return "CUDA"; }
    // Set 1: C++ keywords and CUDA qualifiers; set 2: built-ins and intrinsics.
    const char* keywords(int set) const override;
};

} // namespace kw
