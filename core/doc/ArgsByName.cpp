#include "doc/ArgsByName.hpp"

#include "data/DType.hpp"
#include "doc/DocumentValidator.hpp"
#include "util/Error.hpp"

#include <algorithm>

namespace kw {

namespace {

std::vector<ArgSpec> bind(const Document& doc, const KernelSignature& kernel, const std::string& listField)
{
    std::vector<ArgSpec> args;
    for (std::size_t p = 0; p < kernel.params.size(); ++p) {
        const KernelParam& param = kernel.params[p];
        const std::string field
            = listField + ": parameter " + std::to_string(p + 1) + (param.name.empty() ? "" : " (" + param.name + ")");
        if (param.name.empty())
            throw Error(ErrorCategory::Document, field + " has no name to bind by; list the args");
        ArgSpec a;
        a.name = param.name;
        const BufferSpec* buffer = doc.findBuffer(param.name);
        if (param.isPointer) {
            if (!buffer || buffer->global)
                throw Error(ErrorCategory::Document,
                            field + " is a pointer but there is no buffer named \"" + param.name
                                + "\" (for a null pointer, list the args and give {\"buffer\": null})");
            a.buffer = param.name;
        } else {
            const bool isVariable = std::any_of(doc.variables.begin(), doc.variables.end(),
                                                [&](const auto& v) { return v.first == param.name; });
            if (!isVariable)
                throw Error(ErrorCategory::Document,
                            field + " is a scalar but there is no variable named \"" + param.name + "\"");
            const auto type = dtypeForCType(param.baseType);
            if (!type)
                throw Error(ErrorCategory::Document,
                            field + ": the type \"" + param.type + "\" has no dtype; list the args with a \"type\"");
            a.type = *type;
            a.value = param.name;
        }
        args.push_back(std::move(a));
    }
    return args;
}

} // namespace

std::vector<ArgSpec> bindArgsByName(const Document& doc)
{
    return bind(doc, DocumentValidator::kernelSignature(doc), "args (auto)");
}

std::vector<ArgSpec> bindArgsByName(const Document& doc, const std::string& kernel, const std::string& field)
{
    return bind(doc, DocumentValidator::kernelSignature(doc, kernel, field), field);
}

} // namespace kw
