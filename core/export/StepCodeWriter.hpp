#pragma once
// Writes a document's steps as statements of an exported program. The walk, the fields'
// values (whole numbers checked now, or computed where the program runs) and the calls
// of launch, copy, fill and swap are the same in every language; a subclass spells the
// language and writes what has a shape of its own there: the loops of repeat steps and
// the checks after a step.
#include "doc/Document.hpp"
#include "export/ExportPlan.hpp"
#include "export/FieldCode.hpp"

#include <map>
#include <string>
#include <vector>

namespace kw::exporting {

class StepCodeWriter {
public:
    // How the language spells what every step writes.
    struct Spelling {
        std::string comment;       // "//"
        std::string statementEnd;  // ";"
        std::string dimsOpen;      // "{" around grid and block
        std::string dimsClose;     // "}"
        std::string listOpen;      // "{" around a launch's arguments
        std::string listClose;     // "}"
        std::string countFunction; // checks a whole number where the program runs: "kw_count"
    };

    StepCodeWriter(const ExportPlan& plan, Language language, Spelling spelling, std::string& out);
    virtual ~StepCodeWriter() = default;
    StepCodeWriter(const StepCodeWriter&) = delete;
    StepCodeWriter& operator=(const StepCodeWriter&) = delete;

    void list(const std::vector<StepSpec>& steps, const std::string& field, const std::string& parent, int depth);

    // A string literal of the language (both read JSON's escapes).
    static std::string quoted(const std::string& s);
    // What a step is called where steps are listed: its name, or what it does.
    static std::string label(const StepSpec& step);

protected:
    void line(int depth, const std::string& text);
    // Lines already indented.
    void lines(const std::string& text);
    std::string pad(int depth) const;
    // A whole number: a literal when it is known now, else checked where the program runs.
    std::string count(const std::string& text, const std::string& field);
    // A scalar of `type`: its exact bytes when known now, else packed where the program runs.
    std::string scalar(DType type, const std::string& text, const std::string& field);

    virtual std::string scalarLiteral(DType type, const std::vector<std::byte>& bytes) const = 0;
    virtual std::string scalarPacked(DType type, const std::string& code) const = 0;
    // A scalar as one of a launch's arguments.
    virtual std::string argument(const std::string& scalarCode) const = 0;
    virtual void repeat(const StepSpec& step, const std::string& field, const std::string& path, int depth) = 0;
    virtual void checks(const std::vector<CheckSpec>& checks, const std::string& field, const std::string& path,
                        int depth)
        = 0;

    const ExportPlan& plan_;
    FieldCode fields_;
    std::map<std::string, std::string> loops_; // a repeat's index name: the program's variable

private:
    void step(const StepSpec& s, const std::string& field, const std::string& path, int depth);
    std::string dims(const std::vector<std::string>& texts, const std::string& field);
    std::string offset(const std::string& text, const std::string& field);
    void call(int depth, const std::string& function, const std::vector<std::string>& args);

    Spelling spelling_;
    std::string& out_;
};

} // namespace kw::exporting
