#pragma once
// The panels that edit the document, bound to it both ways: an edit in a panel
// becomes an edit of the document (WorkbenchDocument::edit, the editor's text through
// setSource), and a change of the document (undo, redo, a new document) is shown in
// the panels that show that part. While it shows a change, what the panels report is
// not taken as an edit, so showing never pushes an edit of its own.
#include "DocumentPart.hpp"
#include "doc/Document.hpp"

#include <QObject>
#include <QTimer>

namespace kw {

class ArgumentsPanel;
class CodeEditor;
class KernelPicker;
class LaunchPanel;
class NotesPanel;
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
    };
    DocumentPanels(WorkbenchDocument& document, Panels panels, QObject* parent = nullptr);

    // The document as the panels hold it now, over `doc`'s fields they do not edit.
    Document read(const Document& doc) const;

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

    WorkbenchDocument& document_;
    Panels p_;
    QTimer signatureTimer_; // the source's kernels are read a moment after typing stops
    bool showing_ = false;  // a change of the document is being shown
    bool writing_ = false;  // a panel's edit is being written: that panel shows it already
};

} // namespace kw
