#pragma once
// Grading in the window: the exercise opened last (File ▸ Open of a *.kwx), and the
// Exercise menu's Grade action, which grades the editor's source on the simulator with
// `kwb-run grade --json` in a process of its own (kernels never run in the window) and
// shows the cases in the Grade dock. The exercise's reference stays in its file: the
// window never reads it.
#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMenuBar;
class QProcess;
class QTemporaryDir;

namespace kw {

class ErrorBanner;
class GradeResultsView;
class WorkbenchDocument;

class GradeController : public QObject {
    Q_OBJECT
public:
    struct Parts {
        WorkbenchDocument* document;
        GradeResultsView* view;
        QDockWidget* dock;
        ErrorBanner* banner;
    };
    GradeController(Parts parts, const QString& program, QObject* parent = nullptr);
    ~GradeController() override;

    void registerActions(QMenuBar* menus);
    void setExercise(const QString& path, const QString& title);
    QString exercise() const { return exercise_; }
    void grade();
    bool grading() const;
    QAction* gradeAction() const { return gradeAct_; }

signals:
    void graded(bool allPassed);

private:
    void finished();

    Parts p_;
    QString program_;
    QString exercise_;
    QAction* gradeAct_ = nullptr;
    QProcess* process_ = nullptr;
    QTemporaryDir* folder_ = nullptr;
};

} // namespace kw
