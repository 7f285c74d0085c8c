#include "GradeController.hpp"

#include "ErrorBanner.hpp"
#include "GradeResultsView.hpp"
#include "RunnerClient.hpp"
#include "WorkbenchDocument.hpp"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

namespace kw {

GradeController::GradeController(Parts parts, const QString& program, QObject* parent)
    : QObject(parent)
    , p_(parts)
    , program_(program.isEmpty() ? RunnerClient::defaultProgram() : program)
{
}

GradeController::~GradeController()
{
    if (process_) {
        process_->kill();
        process_->waitForFinished(2000);
    }
    delete folder_;
}

void GradeController::registerActions(QMenuBar* menus)
{
    QMenu* menu = menus->addMenu(tr("E&xercise"));
    gradeAct_ = new QAction(tr("&Grade"), this);
    gradeAct_->setShortcut(QKeySequence(tr("Ctrl+G")));
    gradeAct_->setToolTip(tr("Grade the editor's kernel against the exercise's cases on the simulator"));
    gradeAct_->setEnabled(false);
    connect(gradeAct_, &QAction::triggered, this, &GradeController::grade);
    menu->addAction(gradeAct_);
}

void GradeController::setExercise(const QString& path, const QString& title)
{
    exercise_ = path;
    if (gradeAct_) {
        gradeAct_->setEnabled(!path.isEmpty());
        gradeAct_->setText(path.isEmpty() ? tr("&Grade") : tr("&Grade against \"%1\"").arg(title));
    }
    p_.view->showMessage(path.isEmpty() ? QString() : tr("Exercise ▸ Grade (Ctrl+G) grades the editor's kernel."));
}

bool GradeController::grading() const { return process_ && process_->state() != QProcess::NotRunning; }

void GradeController::grade()
{
    if (exercise_.isEmpty() || grading())
        return;
    delete folder_;
    folder_ = new QTemporaryDir;
    // The solution under one plain name, so the lines the grade names are the editor's.
    const QString solution = folder_->filePath("solution.cu");
    QFile file(solution);
    if (!folder_->isValid() || !file.open(QIODevice::WriteOnly)) {
        p_.banner->showError(tr("Cannot grade"), tr("cannot write the kernel to a temporary file"));
        return;
    }
    file.write(QByteArray::fromStdString(p_.document->document().source));
    file.close();
    QStringList args = {"grade", exercise_, solution, "--json", "--device", "sim"};
    if (p_.document->document().trust == Trust::Trusted)
        args << "--trust";
    process_ = new QProcess(this);
    connect(process_, &QProcess::finished, this, &GradeController::finished);
    p_.view->showMessage(tr("Grading on the simulator..."));
    p_.dock->show();
    p_.dock->raise();
    gradeAct_->setEnabled(false);
    process_->start(program_, args);
}

void GradeController::finished()
{
    QProcess* process = process_;
    process_ = nullptr;
    process->deleteLater();
    gradeAct_->setEnabled(true);
    const QByteArray out = process->readAllStandardOutput();
    const nlohmann::json report = nlohmann::json::parse(out.toStdString(), nullptr, false);
    if (process->exitStatus() != QProcess::NormalExit || !report.is_object()) {
        const QString why = QString::fromUtf8(process->readAllStandardError()).trimmed();
        p_.view->showMessage(tr("Grading failed: %1").arg(why.isEmpty() ? tr("the grader stopped") : why));
        emit graded(false);
        return;
    }
    p_.view->showReport(report);
    emit graded(report.value("passed", false));
}

} // namespace kw
