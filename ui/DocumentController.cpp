#include "DocumentController.hpp"

#include "ErrorBanner.hpp"
#include "ExportDialog.hpp"
#include "Settings.hpp"
#include "ShippedSamples.hpp"
#include "TrustBar.hpp"
#include "TrustStore.hpp"
#include "UnsavedWorkGuard.hpp"
#include "WorkbenchDocument.hpp"

#include "doc/DocumentReader.hpp"
#include "doc/DocumentRequests.hpp"
#include "doc/DocumentWriter.hpp"
#include "export/DocumentExport.hpp"
#include "grade/ExerciseReader.hpp"
#include "util/Error.hpp"

#include <nlohmann/json.hpp>

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QStatusBar>

#include <stdexcept>

namespace kw {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

// A document whose source_file an untrusted load refuses, opened for reading with
// a note in place of that file's text (which is read only once it is trusted).
Document withoutSourceFile(const QByteArray& bytes, const QString& path)
{
    nlohmann::json j = nlohmann::json::parse(bytes.toStdString());
    const std::string file = j.value("source_file", std::string());
    j.erase("source_file");
    j["source"] = "// The source file \"" + file
        + "\" lies outside the document's folder.\n// It is read only if you trust this document.\n";
    return DocumentReader::parse(j.dump(), path.toStdString(), Trust::Untrusted);
}

// The files the document at `path` brings, read as an untrusted document reads them.
std::vector<BroughtFile> broughtFiles(const QByteArray& bytes, const QString& path)
{
    try {
        return TrustManifest::filesOf(DocumentReader::parse(bytes.toStdString(), path.toStdString(), Trust::Untrusted));
    } catch (const std::exception&) {
        return {}; // what cannot be read as a document brings nothing the record could hold
    }
}
} // namespace

Document DocumentController::starterDocument()
{
    Document d;
    d.title = "New kernel";
    // The Notes pane of a new document: what to do next.
    d.description = "## Your first kernel\n\n"
                    "`scale` multiplies every element of `in` by `factor` into `out`, one thread per element.\n\n"
                    "1. Press **Run** (F5). With no GPU it runs on the CPU simulator; `out` appears under "
                    "**Results** as a plot, a histogram and a table.\n"
                    "2. Change the kernel (say `out[i] = factor * in[i] + 1.0f;`) and run again: the **Run "
                    "history** panel compares the two runs.\n"
                    "3. Change `n` or `block` under **Variables**: the launch follows.\n"
                    "4. Keep your work with **File ▸ Save**; the **Samples** menu has complete examples to "
                    "open.\n\n"
                    "Help ▸ Getting started explains the rest.\n";
    d.source = "__global__ void scale(const float* in, float* out, float factor, int n)\n"
               "{\n"
               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "    if (i < n)\n"
               "        out[i] = factor * in[i];\n"
               "}\n";
    d.kernel = "scale";
    d.variables = {{"n", "1024"}, {"block", "256"}};
    BufferSpec in{"in", DType::F32, "n", {}, {}, Direction::In, true};
    in.init.kind = Initialiser::Kind::Arange;
    BufferSpec out{"out", DType::F32, "n", {}, {}, Direction::Out, true};
    d.buffers = {in, out};
    d.args = {{"in", "in", DType::F32, "", ""},
              {"out", "out", DType::F32, "", ""},
              {"factor", "", DType::F32, "2", ""},
              {"n", "", DType::I32, "n", ""}};
    d.launch.grid = {"cdiv(n, block)", "1", "1"};
    d.launch.block = {"block", "1", "1"};
    d.trust = Trust::Trusted; // the user's own
    return d;
}

DocumentController::DocumentController(Parts parts, bool autosave, QObject* parent)
    : QObject(parent)
    , p_(parts)
    , trust_(std::make_unique<TrustStore>(*parts.settings))
{
    WorkbenchDocument* doc = p_.document;
    connect(p_.trustBar, &TrustBar::trustRequested, this, &DocumentController::trustCurrentDocument);
    connect(doc, &WorkbenchDocument::modifiedChanged, this, &DocumentController::updateTitle);
    connect(doc, &WorkbenchDocument::pathChanged, this, &DocumentController::updateTitle);

    recovery_ = new UnsavedWorkGuard({[doc] { return doc->isModified(); }, [doc] { return doc->document(); },
                                      [doc] { return doc->path(); },
                                      [this, doc](const Document& restored, const QString& origin) {
                                          load(restored);
                                          doc->setPath(origin);
                                          doc->markUnsaved();
                                      }},
                                     this);
    connect(recovery_, &UnsavedWorkGuard::writeFailed, this, [this](const QString& why) {
        p_.window->statusBar()->showMessage(tr("Autosave failed: %1").arg(why), 8000);
    });
    connect(recovery_, &UnsavedWorkGuard::restoreFailed, this,
            [this](const QString& why) { p_.banner->showError(tr("Cannot restore the recovery copy"), why); });
    if (autosave)
        recovery_->startAutosave(15000);
}

DocumentController::~DocumentController() = default;

void DocumentController::registerActions(QMenuBar* menus)
{
    auto act = [this](const QString& text, const QString& icon, QKeySequence key, auto slot) {
        auto* a = new QAction(icon.isEmpty() ? QIcon() : QIcon(icon), text, p_.window);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    QMenu* file = menus->addMenu(tr("&File"));
    newAct_ = act(tr("&New"), ":/kw/icons/new.svg", QKeySequence::New, &DocumentController::newDocument);
    openAct_ = act(tr("&Open…"), ":/kw/icons/open.svg", QKeySequence::Open, &DocumentController::open);
    saveAct_ = act(tr("&Save"), ":/kw/icons/save.svg", QKeySequence::Save, &DocumentController::save);
    file->addAction(newAct_);
    file->addAction(openAct_);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(saveAct_);
    file->addAction(act(tr("Save &As…"), "", QKeySequence::SaveAs, &DocumentController::saveAs));
    file->addAction(act(tr("&Export…"), "", QKeySequence(), &DocumentController::exportDocument));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), p_.window, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    populateSamples(menus->addMenu(tr("&Samples")));
    refreshRecentMenu();
}

QList<QAction*> DocumentController::toolBarActions() const { return {newAct_, openAct_, saveAct_}; }

void DocumentController::populateSamples(QMenu* menu)
{
    const QDir dir(samplesDir());
    const QStringList files = dir.entryList({"*.kwb"}, QDir::Files, QDir::Name);
    if (files.isEmpty()) {
        menu->addAction(tr("(no samples found)"))->setEnabled(false);
        return;
    }
    for (const QString& f : files) {
        const QString path = dir.filePath(f);
        menu->addAction(QFileInfo(f).completeBaseName().replace('_', ' '), this, [this, path] {
            if (maybeSave())
                openDocument(path);
        });
    }
}

void DocumentController::refreshRecentMenu()
{
    recentMenu_->clear();
    for (const QString& path : p_.settings->recentFiles()) {
        recentMenu_->addAction(path, this, [this, path] {
            if (!maybeSave())
                return;
            if (!QFileInfo::exists(path)) {
                p_.settings->removeRecentFile(path);
                refreshRecentMenu();
                p_.banner->showError(tr("Cannot open %1").arg(path), tr("The file no longer exists."));
                return;
            }
            openDocument(path);
        });
    }
    recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

QString DocumentController::samplesDir()
{
    const QDir app(QCoreApplication::applicationDirPath());
    const QString installed = app.filePath("../share/kernel-workbench/samples");
    if (QDir(installed).exists())
        return QDir(installed).canonicalPath();
    return QString(KW_SOURCE_SAMPLES_DIR);
}

bool DocumentController::isShippedSample(const QString& path)
{
    if (TrustStore::isShipped(path, samplesDir()))
        return true;
    // Run from its build tree, the sources' samples are the program's own too.
    const bool buildTree = QFileInfo::exists(QCoreApplication::applicationDirPath() + "/../CMakeCache.txt");
    return buildTree && TrustStore::isShipped(path, QString(KW_SOURCE_SAMPLES_DIR));
}

bool DocumentController::isInstalledSample(const QString& path)
{
    const QString dir = samplesDir();
    const QString file = QFileInfo(path).canonicalFilePath();
    return !dir.isEmpty() && !file.isEmpty() && file.startsWith(QDir(dir).canonicalPath() + '/');
}

void DocumentController::load(const Document& doc)
{
    p_.banner->hide();
    p_.document->reset(doc);
    applyTrust();
    updateTitle();
}

void DocumentController::applyTrust(const QString& refusal)
{
    const Document& doc = p_.document->document();
    if (doc.trust == Trust::Trusted) {
        p_.trustBar->hide();
        return;
    }
    // What the source names, and every header it reaches, nested ones too.
    std::vector<DocumentRequest> requests = documentRequests(doc);
    for (const BroughtFile& f : TrustManifest::filesOf(doc))
        if (f.role.rfind("#include", 0) == 0)
            requests.push_back({DocumentRequest::Kind::File, "header", f.shownAs});
    p_.trustBar->showFor(requests, refusal);
}

void DocumentController::trustCurrentDocument()
{
    const QString path = p_.document->path();
    QFile f(path);
    if (!path.isEmpty() && !p_.document->isModified() && f.open(QIODevice::ReadOnly)) {
        const QByteArray bytes = f.readAll();
        trust_->trust(bytes, broughtFiles(bytes, path));
        f.close();
        openDocument(path); // again, now with its source file and options allowed
        return;
    }
    p_.document->setTrust(Trust::Trusted);
    applyTrust();
}

bool DocumentController::openDocument(const QString& path)
{
    try {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            throw std::runtime_error("cannot read " + path.toStdString());
        const QByteArray bytes = file.readAll();
        if (grade::ExerciseReader::isExercise(bytes.toStdString()))
            return openExercise(path, bytes);
        QStringList changed; // files swapped since the user trusted this document
        const std::vector<BroughtFile> brought = broughtFiles(bytes, path);
        const bool shipped = isShippedSample(path) && ShippedSamples::shipped(bytes, brought);
        const Trust trust = shipped || trust_->isTrusted(bytes, brought, &changed) ? Trust::Trusted : Trust::Untrusted;
        Document doc;
        try {
            doc = DocumentReader::readString(bytes.toStdString(), path.toStdString(), trust);
        } catch (const Error& validation) {
            // Open what parses so the user can fix what the validator refused.
            const bool refused = validation.category() == ErrorCategory::Untrusted;
            doc = refused ? withoutSourceFile(bytes, path)
                          : DocumentReader::parse(bytes.toStdString(), path.toStdString(), trust);
            load(doc);
            if (refused)
                applyTrust(QString::fromUtf8(validation.what()));
            else
                p_.banner->showWarning(tr("The document has problems"), QString::fromUtf8(validation.what()));
            opened(path);
            return true;
        }
        load(doc);
        if (!changed.isEmpty())
            applyTrust(tr("You trusted this document, but files it brings changed since: %1.").arg(changed.join(", ")));
    } catch (const std::exception& e) {
        p_.banner->showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), QString::fromUtf8(e.what()));
        return false;
    }
    opened(path);
    return true;
}

// The exercise's starter as an untitled document (saving it never writes over the
// exercise), its statement in the Notes; the reference stays in the file.
bool DocumentController::openExercise(const QString& path, const QByteArray& bytes)
{
    const Trust trust = trust_->isTrusted(bytes, {}) ? Trust::Trusted : Trust::Untrusted;
    const grade::Exercise exercise = grade::ExerciseReader::readString(bytes.toStdString(), path.toStdString(), trust);
    load(exercise.starterDocument());
    p_.document->setPath({});
    updateTitle();
    emit exerciseOpened(QFileInfo(path).absoluteFilePath(), QString::fromStdString(exercise.title));
    return true;
}

void DocumentController::opened(const QString& path)
{
    p_.document->setPath(QFileInfo(path).absoluteFilePath());
    p_.settings->addRecentFile(p_.document->path());
    refreshRecentMenu();
    updateTitle();
}

void DocumentController::newDocument()
{
    if (!maybeSave())
        return;
    p_.document->setPath({});
    load(starterDocument());
}

void DocumentController::open()
{
    if (!maybeSave())
        return;
    const QString current = p_.document->path();
    const QString dir = current.isEmpty() ? samplesDir() : QFileInfo(current).absolutePath();
    const QString path = QFileDialog::getOpenFileName(p_.window, tr("Open document"), dir,
                                                      tr("Workbench documents and exercises (*.kwb *.kwx)"));
    if (!path.isEmpty())
        openDocument(path);
}

bool DocumentController::save()
{
    // A sample belongs to the installation: saving it means saving a copy.
    const QString path = p_.document->path();
    return path.isEmpty() || isInstalledSample(path) ? saveAs() : writeTo(path);
}

bool DocumentController::saveAs()
{
    const QString current = p_.document->path();
    QString suggested = QDir::homePath() + "/untitled.kwb";
    if (!current.isEmpty())
        suggested = isInstalledSample(current) ? QDir::homePath() + '/' + QFileInfo(current).fileName() : current;
    QString path
        = QFileDialog::getSaveFileName(p_.window, tr("Save document"), suggested, tr("Workbench documents (*.kwb)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(".kwb"))
        path += ".kwb";
    return writeTo(path);
}

void DocumentController::exportDocument()
{
    ExportDialog dialog(p_.document->path(), p_.window);
    if (dialog.exec() == QDialog::Accepted)
        exportTo(dialog.target(), dialog.folder());
}

bool DocumentController::exportTo(exporting::ExportTarget target, const QString& folder)
{
    // Only files are written (the PyCUDA export compiles once, in the sandboxed compile
    // worker, for the kernels' mangled names): nothing runs in the window.
    try {
        exporting::ExportRequest request;
        request.target = target;
        request.folder = folder.toStdString();
        exporting::DocumentExport::write(p_.document->document(), request);
    } catch (const std::exception& e) {
        p_.banner->showError(tr("Cannot export the document"), QString::fromStdString(e.what()));
        return false;
    }
    p_.window->statusBar()->showMessage(
        tr("Exported for %1 to %2 (README.md says how to run it)").arg(exporting::toString(target), folder), 8000);
    return true;
}

bool DocumentController::writeTo(const QString& path)
{
    const Document& doc = p_.document->document();
    try {
        if (!doc.sourceFile.empty()) {
            // The writer stores only the document; the source beside it is ours to write.
            const QString sourcePath = QFileInfo(path).absoluteDir().filePath(q(doc.sourceFile));
            QSaveFile src(sourcePath);
            if (!src.open(QIODevice::WriteOnly) || src.write(QByteArray::fromStdString(doc.source)) < 0
                || !src.commit())
                throw std::runtime_error("cannot write " + sourcePath.toStdString());
        }
        DocumentWriter::writeFile(doc, path.toStdString());
        if (doc.trust == Trust::Trusted) { // what the user saves from a trusted document is theirs
            QFile written(path);
            if (written.open(QIODevice::ReadOnly)) {
                const QByteArray bytes = written.readAll();
                trust_->trust(bytes, broughtFiles(bytes, path));
            }
        }
    } catch (const std::exception& e) {
        p_.banner->showError(tr("Cannot save %1").arg(QFileInfo(path).fileName()), QString::fromUtf8(e.what()));
        return false;
    }
    p_.document->savedAs(QFileInfo(path).absoluteFilePath());
    p_.settings->addRecentFile(p_.document->path());
    refreshRecentMenu();
    updateTitle();
    removeRecovery();
    p_.window->statusBar()->showMessage(tr("Saved %1").arg(p_.document->path()), 4000);
    return true;
}

bool DocumentController::maybeSave()
{
    if (!p_.document->isModified())
        return true;
    const QString path = p_.document->path();
    const auto answer = QMessageBox::warning(
        p_.window, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(path.isEmpty() ? tr("The document") : QFileInfo(path).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    if (answer != QMessageBox::Discard)
        return false;
    removeRecovery(); // the changes it holds were just thrown away
    return true;
}

void DocumentController::updateTitle()
{
    const QString path = p_.document->path();
    const QString name = path.isEmpty() ? tr("untitled.kwb") : QFileInfo(path).fileName();
    const QString sample = !path.isEmpty() && isInstalledSample(path) ? tr(" (sample, read-only)") : QString();
    p_.window->setWindowModified(p_.document->isModified());
    p_.window->setWindowTitle(name + sample + "[*] — Kernel Workbench");
}

QString DocumentController::recoveryFile() { return UnsavedWorkGuard::file(); }
bool DocumentController::hasRecovery() const { return recovery_->exists(); }
void DocumentController::writeRecovery() { recovery_->write(); }
void DocumentController::removeRecovery() { recovery_->remove(); }
void DocumentController::offerRecovery() { recovery_->offer(p_.window); }
bool DocumentController::restoreRecovery() { return recovery_->restore(); }

} // namespace kw
