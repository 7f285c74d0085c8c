#include "compile/SourceLexer.hpp"

#include <cctype>
#include <string>

namespace kw {

namespace {

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

class Lexer {
public:
    explicit Lexer(std::string_view s)
        : s_(s)
    {
    }

    std::vector<SourceToken> run()
    {
        std::vector<SourceToken> out;
        bool lineStart = true; // only whitespace/comments so far on this line
        while (pos_ < s_.size()) {
            char c = s_[pos_];
            if (c == '\n') {
                advance();
                lineStart = true;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                advance();
                continue;
            }
            if (const std::size_t n = spliceAt()) { // line splice outside a directive
                skip(n);
                continue;
            }
            if (c == '/' && peek(1) == '/') {
                skipLineComment();
                continue;
            }
            if (c == '/' && peek(1) == '*') {
                skipBlockComment();
                continue;
            }
            std::size_t start = pos_;
            int line = line_, col = col_;
            SourceToken::Kind kind;
            if (c == '#' && lineStart) {
                lexDirective();
                kind = SourceToken::Kind::Directive;
            } else if (startsRawString()) {
                lexRawString();
                kind = SourceToken::Kind::String;
            } else if (isIdentStart(c)) {
                while (pos_ < s_.size() && isIdentChar(s_[pos_]))
                    advance();
                // Encoding prefixes glue onto the following literal.
                std::string_view word = s_.substr(start, pos_ - start);
                if ((word == "L" || word == "u" || word == "U" || word == "u8") && pos_ < s_.size()
                    && (s_[pos_] == '"' || s_[pos_] == '\'')) {
                    char q = s_[pos_];
                    lexQuoted(q);
                    kind = q == '"' ? SourceToken::Kind::String : SourceToken::Kind::Char;
                } else {
                    kind = SourceToken::Kind::Identifier;
                }
            } else if (std::isdigit(static_cast<unsigned char>(c))
                       || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
                lexNumber();
                kind = SourceToken::Kind::Number;
            } else if (c == '"' || c == '\'') {
                lexQuoted(c);
                kind = c == '"' ? SourceToken::Kind::String : SourceToken::Kind::Char;
            } else {
                lexPunct();
                kind = SourceToken::Kind::Punct;
            }
            lineStart = false;
            out.push_back({kind, s_.substr(start, pos_ - start), start, line, col});
        }
        return out;
    }

private:
    char peek(std::size_t ahead) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }

    // The length of a line splice here: a backslash, then LF or CR LF (a file saved on
    // Windows splices its lines as the compiler does), else 0.
    std::size_t spliceAt() const
    {
        if (pos_ >= s_.size() || s_[pos_] != '\\')
            return 0;
        if (peek(1) == '\n')
            return 2;
        return peek(1) == '\r' && peek(2) == '\n' ? 3 : 0;
    }

    void skip(std::size_t n)
    {
        for (std::size_t i = 0; i < n; ++i)
            advance();
    }

    void advance()
    {
        if (s_[pos_] == '\n') {
            ++line_;
            col_ = 1;
        } else {
            ++col_;
        }
        ++pos_;
    }

    void skipLineComment()
    {
        while (pos_ < s_.size() && s_[pos_] != '\n') {
            if (const std::size_t n = spliceAt()) {
                skip(n);
                continue;
            }
            advance();
        }
    }

    void skipBlockComment()
    {
        advance();
        advance();
        while (pos_ < s_.size() && !(s_[pos_] == '*' && peek(1) == '/'))
            advance();
        if (pos_ < s_.size()) {
            advance();
            advance();
        }
    }

    void lexDirective()
    {
        // Runs to the end of the line, following splices; comments inside are kept
        // in the text but a block comment may carry the directive over lines.
        while (pos_ < s_.size() && s_[pos_] != '\n') {
            if (const std::size_t n = spliceAt()) {
                skip(n);
                continue;
            }
            if (s_[pos_] == '/' && peek(1) == '*') {
                skipBlockComment();
                continue;
            }
            if (s_[pos_] == '/' && peek(1) == '/') {
                skipLineComment();
                continue;
            }
            if (s_[pos_] == '"' || s_[pos_] == '\'') {
                lexQuoted(s_[pos_]); // "/*" in a string starts no comment
                continue;
            }
            advance();
        }
    }

    bool startsRawString() const
    {
        // R"  u8R"  LR"  uR"  UR"
        std::size_t p = pos_;
        if (s_.substr(p, 2) == "u8")
            p += 2;
        else if (p < s_.size() && (s_[p] == 'L' || s_[p] == 'u' || s_[p] == 'U'))
            p += 1;
        return s_.substr(p, 2) == "R\"";
    }

    void lexRawString()
    {
        while (s_[pos_] != '"')
            advance();
        advance();
        std::size_t delimStart = pos_;
        while (pos_ < s_.size() && s_[pos_] != '(' && s_[pos_] != '\n')
            advance();
        std::string close = ")" + std::string(s_.substr(delimStart, pos_ - delimStart)) + "\"";
        std::size_t end = s_.find(close, pos_);
        std::size_t stop = end == std::string_view::npos ? s_.size() : end + close.size();
        while (pos_ < stop)
            advance();
    }

    void lexQuoted(char quote)
    {
        advance();
        while (pos_ < s_.size() && s_[pos_] != quote && s_[pos_] != '\n') {
            if (const std::size_t n = spliceAt()) {
                skip(n);
                continue;
            }
            if (s_[pos_] == '\\' && pos_ + 1 < s_.size())
                advance();
            advance();
        }
        if (pos_ < s_.size() && s_[pos_] == quote)
            advance();
    }

    void lexNumber()
    {
        while (pos_ < s_.size()) {
            char c = s_[pos_];
            if (isIdentChar(c) || c == '.' || c == '\'') {
                advance();
            } else if ((c == '+' || c == '-') && pos_ > 0) {
                char prev = static_cast<char>(std::tolower(static_cast<unsigned char>(s_[pos_ - 1])));
                if (prev == 'e' || prev == 'p')
                    advance();
                else
                    break;
            } else {
                break;
            }
        }
    }

    void lexPunct()
    {
        static constexpr std::string_view threes[] = {"<<=", ">>=", "...", "->*", "<=>"};
        static constexpr std::string_view twos[] = {"::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
                                                    "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##"};
        for (auto t : threes)
            if (s_.substr(pos_, 3) == t) {
                for (int i = 0; i < 3; ++i)
                    advance();
                return;
            }
        for (auto t : twos)
            if (s_.substr(pos_, 2) == t) {
                advance();
                advance();
                return;
            }
        advance();
    }

    std::string_view s_;
    std::size_t pos_ = 0;
    int line_ = 1;
    int col_ = 1;
};

} // namespace

std::vector<SourceToken> lexSource(std::string_view source) { return Lexer(source).run(); }

} // namespace kw
