#include "DocumentPanels.hpp"

#include "ArgumentsPanel.hpp"
#include "BufferEditor.hpp"
#include "CodeEditor.hpp"
#include "KernelPicker.hpp"
#include "LaunchPanel.hpp"
#include "NotesPanel.hpp"
#include "VariablesTable.hpp"
#include "WorkbenchDocument.hpp"

#include "compile/HostCodeFilter.hpp"
#include "compile/SignatureParser.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/DocumentValidator.hpp"
#include "doc/Expression.hpp"
#include "doc/VariableScope.hpp"

#include <QSignalBlocker>
#include <QUndoStack>

#include <algorithm>
#include <utility>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

std::vector<KernelSignature> kernelsOf(const std::string& source, const Document& doc)
{
    return DocumentValidator::kernels(source, doc.baseDir(), doc.sourceFile.empty() ? "kernel.cu" : doc.sourceFile);
}

bool sameArgs(const std::vector<ArgSpec>& a, const std::vector<ArgSpec>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const ArgSpec& x, const ArgSpec& y) {
        return x.name == y.name && x.buffer == y.buffer && x.offset == y.offset && x.type == y.type
            && x.value == y.value;
    });
}

// Sets a flag for the length of a scope, as it was before on leaving it.
struct Raised {
    bool& flag;
    bool was;
    explicit Raised(bool& f)
        : flag(f)
        , was(std::exchange(f, true))
    {
    }
    ~Raised() { flag = was; }
};
} // namespace

DocumentPanels::DocumentPanels(WorkbenchDocument& document, Panels panels, QObject* parent)
    : QObject(parent)
    , document_(document)
    , p_(panels)
{
    connect(&document_, &WorkbenchDocument::changed, this, &DocumentPanels::show);

    signatureTimer_.setSingleShot(true);
    signatureTimer_.setInterval(150);
    connect(&signatureTimer_, &QTimer::timeout, this, &DocumentPanels::updateKernels);
    connect(p_.editor, &QsciScintilla::textChanged, this, [this] {
        if (showing_)
            return;
        const Raised writing(writing_);
        document_.setSource(p_.editor->text().toStdString());
    });
    // A kernel chosen brings its parameters: the choice and the arguments are one step.
    connect(p_.picker, &KernelPicker::kernelChanged, this, [this] {
        if (showing_)
            return;
        // Only around a real change: an empty macro would mark the document modified.
        const bool chosen = p_.picker->currentKernel().toStdString() != document_.document().kernel;
        QUndoStack* stack = document_.undoStack();
        if (chosen)
            stack->beginMacro(tr("choice of kernel"));
        kernelChosen();
        edit(DocumentPart::Kernel);
        if (chosen)
            stack->endMacro();
    });
    connect(p_.variables, &VariablesTable::changed, this, [this] { edit(DocumentPart::Variables); });
    connect(p_.arguments, &ArgumentsPanel::changed, this, &DocumentPanels::editArguments);
    connect(p_.launch, &LaunchPanel::changed, this, [this] { edit(DocumentPart::Launch); });

    // The preview runs the core's initialiser on the buffer as it stands.
    p_.arguments->bufferEditor()->setPreview([this](const BufferSpec& b) -> QString {
        try {
            const Document& doc = document_.document();
            const VariableScope scope = VariableScope::evaluate(p_.variables->variables());
            const BufferFactory factory(scope, doc.baseDir(), doc.trust);
            const std::int64_t count = scope.evaluateInteger(b.count, "count");
            if (count > (std::int64_t(1) << 24))
                return tr("%L1 elements (no preview past 16 M)").arg(count);
            const NdArray a = factory.create(b, "buffer " + b.name);
            QStringList vals;
            for (std::size_t i = 0; i < std::min<std::size_t>(a.data.count(), 8); ++i)
                vals << q(formatNumber(a.data.at(i)));
            return tr("%L1 elements: %2%3").arg(a.data.count()).arg(vals.join(", "), a.data.count() > 8 ? ", …" : "");
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
    });
}

Document DocumentPanels::read(const Document& base) const
{
    Document d = base;
    d.source = p_.editor->text().toStdString();
    d.kernel = p_.picker->currentKernel().toStdString();
    d.variables = p_.variables->variables();
    d.buffers = p_.arguments->buffers();
    d.args = p_.arguments->args();
    // Globals and reference buffers have no parameter row: they stay as the document had them.
    for (const BufferSpec& b : base.buffers) {
        const auto named = [&](const auto& list, auto field) {
            return std::any_of(list.begin(), list.end(), [&](const auto& e) { return e.*field == b.name; });
        };
        if (!named(d.buffers, &BufferSpec::name) && (b.global || !named(base.args, &ArgSpec::buffer)))
            d.buffers.push_back(b);
    }
    d.argsAuto = base.argsAuto && sameArgs(d.args, base.args);
    d.launch = p_.launch->launch();
    d.run = p_.launch->runSettings();
    return d;
}

void DocumentPanels::edit(DocumentPart part)
{
    if (showing_)
        return;
    const Raised writing(writing_);
    document_.edit(part, read(document_.document()));
}

// One edit of the arguments panel may change the arguments, the buffers or both:
// both are one undo step.
void DocumentPanels::editArguments()
{
    if (showing_)
        return;
    const Raised writing(writing_);
    const Document now = read(document_.document());
    const bool args = !samePart(DocumentPart::Args, document_.document(), now);
    const bool buffers = !samePart(DocumentPart::Buffers, document_.document(), now);
    QUndoStack* stack = document_.undoStack();
    if (args && buffers)
        stack->beginMacro(tr("edit of the arguments"));
    document_.edit(DocumentPart::Args, now);
    document_.edit(DocumentPart::Buffers, now);
    if (args && buffers)
        stack->endMacro();
}

void DocumentPanels::show(DocumentPart part)
{
    const Document& doc = document_.document();
    if (part == DocumentPart::Whole) {
        showWhole();
        return;
    }
    if (part == DocumentPart::Source) {
        p_.editor->setFaultLine(0);
        signatureTimer_.start();
    }
    if (!writing_) { // else the panel that made the edit shows it already
        const Raised showing(showing_);
        showPart(part);
    }
    if (part == DocumentPart::Variables) {
        // What depends on the variables follows them, whoever changed them.
        p_.launch->setVariables(doc.variables);
        p_.arguments->setVariableNames(p_.variables->names());
        p_.arguments->bufferEditor()->refreshPreview();
    }
}

void DocumentPanels::showPart(DocumentPart part)
{
    const Document& doc = document_.document();
    switch (part) {
    case DocumentPart::Source:
        if (p_.editor->text().toStdString() != doc.source)
            p_.editor->setText(q(doc.source));
        break;
    case DocumentPart::Kernel:
        p_.picker->setCurrentKernel(q(doc.kernel));
        kernelChosen();
        break;
    case DocumentPart::Launch: p_.launch->setLaunch(doc.launch, doc.run); break;
    case DocumentPart::Variables: p_.variables->setVariables(doc.variables); break;
    case DocumentPart::Args:
    case DocumentPart::Buffers: showArguments(); break;
    case DocumentPart::Checks:
    case DocumentPart::Options:
    case DocumentPart::Whole: break; // no panel edits these; Whole is shown by showWhole
    }
}

void DocumentPanels::showArguments()
{
    const Document& doc = document_.document();
    p_.arguments->load(doc.buffers, doc.args);
    kernelChosen();
}

void DocumentPanels::showWhole()
{
    signatureTimer_.stop();
    const Document loaded = document_.document();
    {
        const Raised showing(showing_);
        p_.editor->setText(q(loaded.source));
        p_.editor->SendScintilla(QsciScintilla::SCI_EMPTYUNDOBUFFER); // undo never reaches the previous document
        p_.variables->setVariables(loaded.variables);
        p_.arguments->setVariableNames(p_.variables->names());
        p_.arguments->bufferEditor()->setBaseDir(q(loaded.baseDir().string()));
        p_.launch->setVariables(loaded.variables);
        p_.launch->setLaunch(loaded.launch, loaded.run);
        p_.arguments->load(loaded.buffers, loaded.args);
        {
            const QSignalBlocker quiet(p_.picker); // one setSignature below, for the document's kernel
            p_.picker->setKernels(kernelsOf(loaded.source, loaded));
            p_.picker->setCurrentKernel(q(loaded.kernel));
        }
        showSourceStructure(loaded.source);
        kernelChosen();
        p_.notes->setNotes(q(loaded.title), q(loaded.description), loaded.baseDir());
        p_.editor->setFaultLine(0);
    }
    // What the panels made of it (arguments matched to the signature) is the document.
    document_.settle(read(loaded));
    p_.editor->setFocus();
}

void DocumentPanels::updateKernels()
{
    const std::string source = p_.editor->text().toStdString();
    p_.picker->setKernels(kernelsOf(source, document_.document()));
    showSourceStructure(source);
    kernelChosen();
}

void DocumentPanels::showSourceStructure(const std::string& source)
{
    p_.editor->setHostCode(HostCodeFilter::deviceOnly(source).removed);
    p_.arguments->setModuleGlobals(parseModuleGlobals(source));
}

void DocumentPanels::kernelChosen()
{
    if (auto sig = p_.picker->currentSignature())
        p_.arguments->setSignature(*sig);
}

} // namespace kw
