#include "DocumentPanels.hpp"

#include "ArgumentsPanel.hpp"
#include "BufferEditor.hpp"
#include "ChecksEditor.hpp"
#include "CodeEditor.hpp"
#include "KernelPicker.hpp"
#include "LaunchPanel.hpp"
#include "NotesPanel.hpp"
#include "SetupProposalDialog.hpp"
#include "StepListPanel.hpp"
#include "StepProblems.hpp"
#include "StepTree.hpp"
#include "VariablesTable.hpp"
#include "WorkbenchDocument.hpp"

#include "compile/HostCodeFilter.hpp"
#include "compile/SignatureParser.hpp"
#include "doc/BufferFactory.hpp"
#include "doc/DocumentValidator.hpp"
#include "doc/Expression.hpp"
#include "doc/PlacedChecks.hpp"
#include "doc/StepPaths.hpp"
#include "doc/VariableScope.hpp"

#include <QPushButton>
#include <QSignalBlocker>
#include <QUndoStack>

#include <algorithm>
#include <utility>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

std::vector<KernelSignature> kernelsOf(const std::string& source, const Document& doc)
{
    return DocumentValidator::kernels(source, doc.baseDir(), doc.sourceName());
}

bool sameArgs(const std::vector<ArgSpec>& a, const std::vector<ArgSpec>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const ArgSpec& x, const ArgSpec& y) {
        return x.name == y.name && x.buffer == y.buffer && x.offset == y.offset && x.type == y.type
            && x.value == y.value;
    });
}

// The document's buffers with those the arguments panel holds in their place, in the
// document's order; a buffer new to the document comes last.
std::vector<BufferSpec> mergedBuffers(const std::vector<BufferSpec>& document, const std::vector<BufferSpec>& panel)
{
    std::vector<BufferSpec> out = document;
    for (const BufferSpec& b : panel) {
        auto it = std::find_if(out.begin(), out.end(), [&](const BufferSpec& o) { return o.name == b.name; });
        if (it == out.end())
            out.push_back(b);
        else if (!it->global)
            *it = b;
    }
    return out;
}

// The kernels a document of steps lists: those its launches use, in the order listed,
// then any new one. A document whose steps launch nothing keeps its list.
std::vector<std::string> kernelsOfSteps(const Document& doc)
{
    std::vector<std::string> used;
    for (const StepPath& p : StepTree::all(doc.steps)) {
        const StepSpec* s = StepTree::find(doc.steps, p);
        if (s->kind == StepSpec::Kind::Launch && std::find(used.begin(), used.end(), s->kernel) == used.end())
            used.push_back(s->kernel);
    }
    if (used.empty())
        return doc.kernels;
    std::vector<std::string> out;
    for (const std::string& k : doc.kernels)
        if (std::find(used.begin(), used.end(), k) != used.end())
            out.push_back(k);
    for (const std::string& k : used)
        if (std::find(out.begin(), out.end(), k) == out.end())
            out.push_back(k);
    return out;
}

StepSpec* selectedLaunch(Document& doc, const StepListPanel& steps)
{
    const auto path = steps.selectedPath();
    StepSpec* s = path ? StepTree::find(doc.steps, *path) : nullptr;
    return s && s->kind == StepSpec::Kind::Launch ? s : nullptr;
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
        if (document_.document().isSequence()) {
            editStepKernel();
            return;
        }
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
    connect(p_.launch, &LaunchPanel::changed, this, [this] {
        if (document_.document().isSequence())
            editStepLaunch();
        else
            edit(DocumentPart::Launch);
    });
    connect(p_.arguments, &ArgumentsPanel::setupRequested, this, &DocumentPanels::proposeSetup);
    connect(p_.checks, &ChecksEditor::changed, this, [this](bool typed) {
        if (showing_)
            return;
        const Raised writing(writing_);
        Document d = read(document_.document());
        PlacedChecks::place(d, p_.checks->checks());
        document_.edit(DocumentPart::Checks, d, typed);
    });
    connect(p_.steps, &StepListPanel::changed, this, &DocumentPanels::editSteps);
    connect(p_.steps, &StepListPanel::selectionChanged, this, &DocumentPanels::showSelectedStep);
    p_.steps->setLaunchFactory([this] { return newLaunchStep(); });

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
    d.variables = p_.variables->variables();
    if (base.isSequence()) {
        // The launch and arguments panels show one step; its edits are written as they come.
        d.run = p_.launch->runSettings();
        return d;
    }
    d.kernel = p_.picker->currentKernel().toStdString();
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
    if (document_.document().isSequence()) {
        editStepArguments();
        return;
    }
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
    } else if ((part == DocumentPart::Steps && !stepsWriting_) || (part == DocumentPart::Checks && doc.isSequence())) {
        // A launch step edited in the launch, arguments or kernel panels, or a step's checks
        // in the Checks tab: the Steps list's copy of the steps follows.
        const Raised showing(showing_);
        p_.steps->setDocument(doc);
    }
    if (part == DocumentPart::Variables) {
        // What depends on the variables follows them, whoever changed them.
        p_.launch->setVariables(launchVariables());
        p_.arguments->setVariableNames(p_.variables->names());
        p_.arguments->bufferEditor()->refreshPreview();
        if (doc.isSequence()) {
            const Raised showing(showing_);
            p_.steps->setDocument(doc); // the launches' evaluated grid and block
        }
    }
    if (part != DocumentPart::Source && part != DocumentPart::Checks)
        p_.checks->setContext(doc); // the names its checks may use, and their validation, follow
    if (doc.isSequence() && part != DocumentPart::Source)
        showStepProblems();
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
    case DocumentPart::Launch:
        if (doc.isSequence())
            showSelectedStep();
        else
            p_.launch->setLaunch(doc.launch, doc.run);
        break;
    case DocumentPart::Variables: p_.variables->setVariables(doc.variables); break;
    case DocumentPart::Args:
    case DocumentPart::Buffers:
        if (doc.isSequence())
            showSelectedStep();
        else
            showArguments();
        break;
    case DocumentPart::Steps:
        p_.steps->setDocument(doc); // its selection shows the selected step in the other panels
        showSelectedStep();
        break;
    case DocumentPart::Checks:
        p_.checks->setDocument(doc);
        if (doc.isSequence())
            p_.steps->setDocument(doc); // its copy of the steps holds their checks
        break;
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
        const bool sequence = loaded.isSequence();
        p_.launch->setRepeatsApply(!sequence);
        if (!sequence)
            showSetupTarget(true, {});
        p_.steps->setDocument(loaded);
        if (sequence) {
            showSelectedStep();
        } else {
            p_.launch->setLaunchTitle({}); // the dock's title says it: its line goes to the fields
            p_.launch->setLaunchEditable(true);
            p_.picker->setEnabled(true);
            p_.arguments->setEnabled(true);
            kernelChosen();
            emit launchTargetChanged(false, {});
        }
        p_.notes->setNotes(q(loaded.title), q(loaded.description), loaded.baseDir());
        p_.checks->setDocument(loaded);
        p_.editor->setFaultLine(0);
    }
    // What the panels made of it (arguments matched to the signature) is the document.
    document_.settle(read(loaded));
    if (loaded.isSequence())
        showStepProblems();
    p_.editor->setFocus();
}

void DocumentPanels::updateKernels()
{
    const std::string source = p_.editor->text().toStdString();
    p_.picker->setKernels(kernelsOf(source, document_.document()));
    showSourceStructure(source);
    kernelChosen();
    if (document_.document().isSequence())
        showStepProblems();
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

// The set-up from the signature is of the document's launch, or of the launch step
// selected in a document of steps; with none selected there is nothing to set up.
void DocumentPanels::showSetupTarget(bool launch, const QString& step)
{
    QPushButton* button = p_.arguments->setupButton();
    button->setEnabled(launch);
    button->setToolTip(!launch ? tr("Select a launch step in the Steps list to set it up from its kernel's parameters")
                           : step.isEmpty()
                           ? tr("Propose buffers, sizes and a launch from the kernel's parameters, to look at before "
                                "taking them")
                           : tr("Propose buffers, sizes and the launch of step %1 from its kernel's parameters, to "
                                "look at before taking them")
                                 .arg(step));
}

void DocumentPanels::proposeSetup()
{
    const Document& doc = document_.document();
    const auto signature = p_.picker->currentSignature();
    const auto path = p_.steps->selectedPath();
    const StepSpec* step = p_.steps->selectedStep();
    if (!signature || (doc.isSequence() && (!path || !step || step->kind != StepSpec::Kind::Launch)))
        return; // the button is off then
    const std::optional<std::string> stepPath
        = doc.isSequence() ? std::optional<std::string>(StepTree::text(*path)) : std::nullopt;
    const QString title = stepPath ? tr("%1 (step %2)").arg(q(signature->name), q(*stepPath)) : q(signature->name);
    auto* dialog
        = new SetupProposalDialog(SignatureSetup::propose(*signature, doc.variables), title, p_.arguments->window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, stepPath] { takeSetup(dialog->proposal(), stepPath); });
    dialog->open();
}

// The variables, buffers, arguments and launch of the proposal (of a document of steps:
// the step's arguments and launch): one undo step, shown in the panels as any change of
// the document.
void DocumentPanels::takeSetup(const SetupProposal& proposal, const std::optional<std::string>& step)
{
    const Document& now = document_.document();
    if (step && !StepPaths::find(now.steps, *step))
        return; // the step went while the dialog was open
    const Document after
        = step ? SignatureSetup::applyToStep(proposal, now, *step) : SignatureSetup::apply(proposal, now);
    QUndoStack* stack = document_.undoStack();
    stack->beginMacro(tr("set-up from the signature"));
    const auto parts = step
        ? std::vector<DocumentPart>{DocumentPart::Variables, DocumentPart::Buffers, DocumentPart::Steps}
        : std::vector<DocumentPart>{DocumentPart::Variables, DocumentPart::Buffers, DocumentPart::Args,
                                    DocumentPart::Launch};
    for (DocumentPart part : parts)
        document_.edit(part, after, false);
    stack->endMacro();
}

// Edits of a document of steps.

void DocumentPanels::editSteps(bool typed)
{
    if (showing_)
        return;
    const Raised writing(writing_), steps(stepsWriting_);
    Document d = document_.document();
    d.steps = p_.steps->steps();
    d.kernels = kernelsOfSteps(d);
    document_.edit(DocumentPart::Steps, d, typed);
}

// The steps and one other part changed by one panel edit: one undo step.
void DocumentPanels::pushWithSteps(const Document& after, DocumentPart other, const QString& what)
{
    const Document& now = document_.document();
    const bool both = !samePart(DocumentPart::Steps, now, after) && !samePart(other, now, after);
    QUndoStack* stack = document_.undoStack();
    if (both)
        stack->beginMacro(what);
    document_.edit(DocumentPart::Steps, after);
    document_.edit(other, after);
    if (both)
        stack->endMacro();
}

void DocumentPanels::editStepLaunch()
{
    if (showing_)
        return;
    const Raised writing(writing_), fields(stepFieldsWriting_);
    Document d = document_.document();
    d.run = p_.launch->runSettings();
    if (StepSpec* s = selectedLaunch(d, *p_.steps))
        s->launch = p_.launch->launch();
    pushWithSteps(d, DocumentPart::Launch, tr("edit of the launch"));
}

void DocumentPanels::editStepArguments()
{
    const Raised writing(writing_), fields(stepFieldsWriting_);
    Document d = document_.document();
    StepSpec* s = selectedLaunch(d, *p_.steps);
    if (!s)
        return;
    const std::vector<ArgSpec> args = p_.arguments->args();
    s->argsAuto = s->argsAuto && sameArgs(args, s->args);
    s->args = args;
    d.buffers = mergedBuffers(d.buffers, p_.arguments->buffers());
    pushWithSteps(d, DocumentPart::Buffers, tr("edit of the arguments"));
}

// Another kernel for the selected launch: its parameters bring their arguments, and the
// document lists the kernels its steps launch.
void DocumentPanels::editStepKernel()
{
    Document d = document_.document();
    StepSpec* s = selectedLaunch(d, *p_.steps);
    if (!s)
        return;
    const std::string kernel = p_.picker->currentKernel().toStdString();
    if (kernel == s->kernel)
        return;
    {
        const Raised showing(showing_);
        kernelChosen(); // the arguments panel takes the kernel's parameters
    }
    const Raised writing(writing_), fields(stepFieldsWriting_);
    s->kernel = kernel;
    s->args = p_.arguments->args();
    s->argsAuto = false;
    d.kernels = kernelsOfSteps(d);
    d.buffers = mergedBuffers(d.buffers, p_.arguments->buffers());
    pushWithSteps(d, DocumentPart::Buffers, tr("choice of kernel"));
    const Raised showing(showing_);
    p_.steps->setDocument(document_.document());
}

std::vector<std::pair<std::string, std::string>> DocumentPanels::launchVariables() const
{
    const Document& doc = document_.document();
    auto vars = doc.variables;
    // Inside a repeat, its index is a name of the launch: shown at its first pass.
    if (doc.isSequence())
        if (const auto path = p_.steps->selectedPath())
            for (const std::string& index : StepTree::indicesAround(p_.steps->steps(), *path))
                vars.emplace_back(index, "0");
    return vars;
}

// The launch step selected in the step list, in the kernel picker and the launch and
// arguments panels; with no launch step selected, they have nothing to edit.
void DocumentPanels::showSelectedStep()
{
    const Document& doc = document_.document();
    if (!doc.isSequence() || stepFieldsWriting_)
        return;
    const Raised showing(showing_);
    const auto path = p_.steps->selectedPath();
    const StepSpec* s = p_.steps->selectedStep();
    const bool launch = s && s->kind == StepSpec::Kind::Launch;
    const QString where = path ? q(StepTree::text(*path)) : QString();
    p_.launch->setVariables(launchVariables());
    p_.launch->setLaunch(launch ? s->launch : LaunchSpecText{}, doc.run);
    p_.launch->setLaunchEditable(launch);
    const bool inRepeat = path && !StepTree::indicesAround(p_.steps->steps(), *path).empty();
    // The dock's title names the step; the fields' box says only what the title can't.
    p_.launch->setLaunchTitle(launch && inRepeat ? tr("Values of its first pass (the step repeats)") : QString());
    p_.picker->setEnabled(launch);
    p_.picker->setCurrentKernel(launch ? q(s->kernel) : QString());
    p_.arguments->setEnabled(launch);
    showSetupTarget(launch, where);
    p_.arguments->load(doc.buffers, launch ? s->args : std::vector<ArgSpec>{});
    if (launch)
        kernelChosen();
    else
        p_.arguments->setSignature(KernelSignature{});
    emit launchTargetChanged(true, launch ? where : QString());
}

void DocumentPanels::showStepProblems() { p_.steps->setProblems(StepProblems::of(document_.document())); }

StepSpec DocumentPanels::newLaunchStep() const
{
    const Document& doc = document_.document();
    StepSpec s;
    s.kind = StepSpec::Kind::Launch;
    const std::vector<KernelSignature>& kernels = p_.picker->kernels();
    s.kernel = !doc.kernels.empty() ? doc.kernels.front() : kernels.empty() ? std::string() : kernels.front().name;
    s.launch.block = {"256", "1", "1"};
    const auto sig = std::find_if(kernels.begin(), kernels.end(),
                                  [&](const KernelSignature& k) { return s.kernel.rfind(k.name, 0) == 0; });
    if (sig == kernels.end())
        return s;
    // Each parameter bound to the buffer or variable of its name, else to the first buffer or 0.
    for (const KernelParam& p : sig->params) {
        ArgSpec a;
        a.name = p.name;
        if (p.isPointer) {
            a.buffer = doc.findBuffer(p.name) ? p.name : doc.buffers.empty() ? p.name : doc.buffers.front().name;
        } else {
            a.type = dtypeForCType(p.baseType).value_or(DType::I32);
            const bool variable = std::any_of(doc.variables.begin(), doc.variables.end(),
                                              [&](const auto& v) { return v.first == p.name; });
            a.value = variable ? p.name : "0";
        }
        s.args.push_back(a);
    }
    return s;
}

} // namespace kw
