#include "export/ExpressionTree.hpp"

#include "util/Error.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

namespace kw::exporting {

namespace {

using Node = std::unique_ptr<ExpressionNode>;

Node make(ExpressionNode::Kind kind, std::string text, std::vector<Node> children = {})
{
    auto n = std::make_unique<ExpressionNode>();
    n->kind = kind;
    n->text = std::move(text);
    n->children = std::move(children);
    return n;
}

class Parser {
public:
    Parser(const std::string& text, const std::string& field)
        : s_(text)
        , field_(field)
    {
    }

    Node parse()
    {
        Node n = ternary();
        skip();
        if (at_ != s_.size())
            fail("unexpected \"" + s_.substr(at_, 1) + "\"");
        return n;
    }

private:
    void skip()
    {
        while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_])))
            ++at_;
    }
    bool take(const std::string& op)
    {
        skip();
        if (s_.compare(at_, op.size(), op) != 0)
            return false;
        at_ += op.size();
        return true;
    }
    bool peek(const std::string& op)
    {
        skip();
        return s_.compare(at_, op.size(), op) == 0;
    }
    [[noreturn]] void fail(const std::string& why) const
    {
        throw Error(ErrorCategory::Expression, field_ + ": " + why + " in \"" + s_ + "\"");
    }

    Node ternary()
    {
        Node c = logicalOr();
        if (!take("?"))
            return c;
        Node a = ternary();
        if (!take(":"))
            fail("\"?\" without \":\"");
        Node b = ternary();
        std::vector<Node> kids;
        kids.push_back(std::move(c));
        kids.push_back(std::move(a));
        kids.push_back(std::move(b));
        return make(ExpressionNode::Kind::Ternary, "?:", std::move(kids));
    }
    Node binary(Node left, std::string op, Node right)
    {
        std::vector<Node> kids;
        kids.push_back(std::move(left));
        kids.push_back(std::move(right));
        return make(ExpressionNode::Kind::Binary, std::move(op), std::move(kids));
    }
    Node logicalOr()
    {
        Node n = logicalAnd();
        while (take("||"))
            n = binary(std::move(n), "||", logicalAnd());
        return n;
    }
    Node logicalAnd()
    {
        Node n = comparison();
        while (take("&&"))
            n = binary(std::move(n), "&&", comparison());
        return n;
    }
    Node comparison()
    {
        Node n = additive();
        for (;;) {
            std::string op;
            for (const char* o : {"<<", ">>", "<=", ">=", "==", "!=", "<", ">"})
                if (take(o)) {
                    op = o;
                    break;
                }
            if (op.empty())
                return n;
            n = binary(std::move(n), op, additive());
        }
    }
    Node additive()
    {
        Node n = multiplicative();
        for (;;) {
            if (take("+"))
                n = binary(std::move(n), "+", multiplicative());
            else if (take("-"))
                n = binary(std::move(n), "-", multiplicative());
            else
                return n;
        }
    }
    Node multiplicative()
    {
        Node n = unary();
        for (;;) {
            if (take("*"))
                n = binary(std::move(n), "*", unary());
            else if (take("/"))
                n = binary(std::move(n), "/", unary());
            else if (take("%"))
                n = binary(std::move(n), "%", unary());
            else
                return n;
        }
    }
    Node unary()
    {
        if (take("-")) {
            std::vector<Node> kids;
            kids.push_back(unary());
            return make(ExpressionNode::Kind::Unary, "-", std::move(kids));
        }
        if (take("+"))
            return unary();
        return power();
    }
    Node power()
    {
        Node n = primary();
        if (take("^"))
            return binary(std::move(n), "^", unary());
        return n;
    }
    Node primary()
    {
        skip();
        if (at_ >= s_.size())
            fail("the expression ends too early");
        const char c = s_[at_];
        if (take("(")) {
            Node n = ternary();
            if (!take(")"))
                fail("missing \")\"");
            return n;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            const std::size_t start = at_;
            while (at_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[at_])) || s_[at_] == '.'))
                ++at_;
            if (at_ < s_.size() && (s_[at_] == 'e' || s_[at_] == 'E')) {
                std::size_t e = at_ + 1;
                if (e < s_.size() && (s_[e] == '+' || s_[e] == '-'))
                    ++e;
                if (e < s_.size() && std::isdigit(static_cast<unsigned char>(s_[e]))) {
                    at_ = e;
                    while (at_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_])))
                        ++at_;
                }
            }
            return make(ExpressionNode::Kind::Number, s_.substr(start, at_ - start));
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = at_;
            while (at_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[at_])) || s_[at_] == '_'))
                ++at_;
            std::string name = s_.substr(start, at_ - start);
            if (!peek("("))
                return make(ExpressionNode::Kind::Name, std::move(name));
            take("(");
            std::vector<Node> args;
            if (!take(")")) {
                do
                    args.push_back(ternary());
                while (take(","));
                if (!take(")"))
                    fail("missing \")\" after the arguments of " + name);
            }
            return make(ExpressionNode::Kind::Call, std::move(name), std::move(args));
        }
        fail("unexpected \"" + std::string(1, c) + "\"");
    }

    const std::string& s_;
    const std::string& field_;
    std::size_t at_ = 0;
};

void collect(const ExpressionNode& n, ExpressionNode::Kind kind, std::vector<std::string>& out)
{
    if (n.kind == kind && std::find(out.begin(), out.end(), n.text) == out.end())
        out.push_back(n.text);
    for (const auto& c : n.children)
        collect(*c, kind, out);
}

} // namespace

ExpressionTree::ExpressionTree(const std::string& text, const std::string& field)
    : root_(Parser(text, field).parse())
{
}

std::vector<std::string> ExpressionTree::names() const
{
    std::vector<std::string> out;
    collect(*root_, ExpressionNode::Kind::Name, out);
    return out;
}

std::vector<std::string> ExpressionTree::calls() const
{
    std::vector<std::string> out;
    collect(*root_, ExpressionNode::Kind::Call, out);
    return out;
}

} // namespace kw::exporting
