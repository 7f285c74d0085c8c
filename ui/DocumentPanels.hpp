#pragma once
// The panels that edit the document, bound to it both ways: an edit in a panel
// becomes an edit of the document (WorkbenchDocument::edit, the editor's text through
// setSource), and a change of the document (undo, redo, a new document) is shown in
// the panels that show that part. While it shows a change, what the panels report is
// not taken as an edit, so showing never pushes an edit of its own.
//
// A document of steps (version 2) has no single launch: the step list edits its steps,
// and the Kernel picker, the Launch and the Arguments panels edit the launch step
// selected in it (its kernel, grid, block and arguments). With another kind of step
// selected they have nothing to edit and say so.
#include "DocumentPart.hpp"
#include "doc/Document.hpp"
#include "doc/SignatureSetup.hpp"

#include <QObject>
#include <QTimer>

#include <optional>
#include <string>

namespace kw {

class ArgumentsPanel;
class ChecksEditor;
class CodeEditor;
class KernelPicker;
class LaunchPanel;
class NotesPanel;
class StepListPanel;
class VariablesTable;
class WorkbenchDocument;

class DocumentPanels : public QObject {
    Q_OBJECT
public:
    struct Panels {
        CodeEditor* editor;
        KernelPicker* picker;
        VariablesTable* variables;
        ArgumentsPanel* arguments;
        LaunchPanel* launch;
        NotesPanel* notes;
        StepListPanel* steps;
        ChecksEditor* checks;
    };
    DocumentPanels(WorkbenchDocument& document, Panels panels, QObject* parent = nullptr);

    // The document as the panels hold it now, over `doc`'s fields they do not edit.
    Document read(const Document& doc) const;

signals:
    // What the Launch and Arguments panels show: a document of one launch, or one of
    // steps; in that case `step` ("2.1") is the launch step shown, empty when none is.
    void launchTargetChanged(bool sequence, const QString& step);

private:
    void show(DocumentPart part);
    void showPart(DocumentPart part);
    void showWhole();
    void showArguments();
    void editArguments();
    void edit(DocumentPart part);
    void updateKernels();
    void showSourceStructure(const std::string& source);
    void kernelChosen();
    // The arguments' "Set up from the signature": the proposal shown, then taken as one edit.
    void proposeSetup();
    void takeSetup(const SetupProposal& proposal, const std::optional<std::string>& step);
    void showSetupTarget(bool launch, const QString& step);
    // A document of steps.
    void editSteps(bool typed);
    void editStepLaunch();
    void editStepArguments();
    void editStepKernel();
    void showSelectedStep();
    void showStepProblems();
    void pushWithSteps(const Document& after, DocumentPart other, const QString& what);
    std::vector<std::pair<std::string, std::string>> launchVariables() const;
    StepSpec newLaunchStep() const;

    WorkbenchDocument& document_;
    Panels p_;
    QTimer signatureTimer_;          // the source's kernels are read a moment after typing stops
    bool showing_ = false;           // a change of the document is being shown
    bool writing_ = false;           // a panel's edit is being written: that panel shows it already
    bool stepsWriting_ = false;      // the step list's edit: the list shows it already
    bool stepFieldsWriting_ = false; // a launch step's edit in the launch, arguments or kernel panels
};

} // namespace kw
