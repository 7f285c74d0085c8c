#pragma once
// The document's life cycle in the window: new, open, save, save as, the samples,
// recent files, the recovery copy of unsaved work, the trust bar and the question
// before unsaved changes are lost. Registers the File and Samples menus' actions.
#include "doc/Document.hpp"
#include "export/ExportFiles.hpp"

#include <QList>
#include <QObject>
#include <QString>

#include <memory>

class QAction;
class QMainWindow;
class QMenu;
class QMenuBar;

namespace kw {

class ErrorBanner;
class Settings;
class TrustBar;
class TrustStore;
class UnsavedWorkGuard;
class WorkbenchDocument;

class DocumentController : public QObject {
    Q_OBJECT
public:
    struct Parts {
        QMainWindow* window; // dialogs, title, status bar
        WorkbenchDocument* document;
        Settings* settings;
        TrustBar* trustBar;
        ErrorBanner* banner;
    };
    DocumentController(Parts parts, bool autosave, QObject* parent = nullptr);
    ~DocumentController() override;

    // The File and Samples menus, in that order.
    void registerActions(QMenuBar* menus);
    QList<QAction*> toolBarActions() const; // new, open, save
    QMenu* recentMenu() const { return recentMenu_; }

    // A starting document: one kernel, its arguments and a launch that fits it.
    static Document starterDocument();
    void load(const Document& doc);
    // Opens without asking about unsaved changes; false (and a banner) on failure.
    bool openDocument(const QString& path);
    void trustCurrentDocument();

    void newDocument();
    void open();
    bool save();
    bool saveAs();
    // File > Export…: asks for a target and a folder (ExportDialog) and writes the program.
    void exportDocument();
    // Writes the current document as a program for `target` in `folder`; false (and a
    // banner saying why) when it cannot.
    bool exportTo(exporting::ExportTarget target, const QString& folder);
    // Asks before unsaved changes are lost; false when the user cancels.
    bool maybeSave();

    static QString recoveryFile();
    bool hasRecovery() const;
    void offerRecovery();
    bool restoreRecovery();
    void writeRecovery();
    void removeRecovery();

    static QString samplesDir();
    static bool isShippedSample(const QString& path);
    static bool isInstalledSample(const QString& path);

signals:
    // An exercise (*.kwx) was opened: its starter is the document now, untitled.
    void exerciseOpened(const QString& path, const QString& title);

private:
    bool openExercise(const QString& path, const QByteArray& bytes);
    bool writeTo(const QString& path);
    void updateTitle();
    void refreshRecentMenu();
    void populateSamples(QMenu* menu);
    void applyTrust(const QString& refusal = {});
    void opened(const QString& path);

    Parts p_;
    std::unique_ptr<TrustStore> trust_;
    UnsavedWorkGuard* recovery_;
    QMenu* recentMenu_ = nullptr;
    QAction* newAct_ = nullptr;
    QAction* openAct_ = nullptr;
    QAction* saveAct_ = nullptr;
};

} // namespace kw
