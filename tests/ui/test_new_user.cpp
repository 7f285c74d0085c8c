// The window as a new user meets it: File > New runs, the window fits a laptop
// screen, nothing stale stays on screen, focus starts in the editor, faults point at
// the document's source, and two runs can be compared. Runs go to a real
// `kwb-run serve` on the simulator.
#include "CodeEditor.hpp"
#include "ErrorBanner.hpp"
#include "HelpMenu.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "ProblemsPanel.hpp"
#include "RunComparison.hpp"
#include "RunHistory.hpp"
#include "RunHistoryPanel.hpp"
#include "RunnerClient.hpp"
#include "test_locations.hpp"
#include "test_window_options.hpp"
#include "views/LinePlot.hpp"
#include "views/PrintfPanel.hpp"
#include "views/PtxPanel.hpp"
#include "views/ResultsPanel.hpp"
#include "views/TimingsPanel.hpp"

#include "doc/DocumentReader.hpp"

#include <qcustomplot.h>

#include <QDockWidget>
#include <QFile>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <gtest/gtest.h>

using namespace kw;

namespace {

class NewUser : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(locations_.ok());
        window_ = std::make_unique<MainWindow>(test::windowOptions());
        QSignalSpy devices(window_->runner(), &RunnerClient::devicesChanged);
        ASSERT_TRUE(devices.count() > 0 || devices.wait(20000)) << "kwb-run serve did not list its devices";
        window_->launchPanel()->setCurrentDevice("sim");
        ASSERT_EQ(window_->launchPanel()->currentDevice(), "sim");
    }

    // Runs the document and waits for its result; false when none came.
    bool runAndWait(RunResult* out = nullptr)
    {
        QSignalSpy done(window_.get(), &MainWindow::runCompleted);
        window_->run();
        if (!done.wait(60000))
            return false;
        if (out)
            *out = done.at(0).at(0).value<RunResult>();
        return true;
    }

    void setSource(const QString& text)
    {
        window_->editor()->selectAll();
        window_->editor()->replaceSelectedText(text);
    }

    test::TestLocations locations_{"new-user"};
    std::unique_ptr<MainWindow> window_;
};

} // namespace

TEST_F(NewUser, FileNewGivesADocumentThatRuns)
{
    window_->newDocument();
    EXPECT_TRUE(window_->launchPanel()->issues().isEmpty())
        << window_->launchPanel()->issues().join('\n').toStdString();
    RunResult r;
    ASSERT_TRUE(runAndWait(&r));
    EXPECT_FALSE(r.fault) << r.fault->message;
    EXPECT_TRUE(r.compile.ok);
    const BufferResult* out = nullptr;
    for (const BufferResult& b : r.buffers)
        if (b.name == "out")
            out = &b;
    ASSERT_NE(out, nullptr);
    ASSERT_EQ(out->data.count(), 1024u);
    EXPECT_EQ(out->data.at(1023), 2.0 * 1023); // out = 2 * arange
}

TEST_F(NewUser, TheWindowFitsALaptopScreenAndGivesTheEditorItsWidth)
{
    const QSize min = window_->minimumSizeHint();
    QString docks;
    for (QDockWidget* d : window_->findChildren<QDockWidget*>())
        docks += QString("%1 %2x%3; ")
                     .arg(d->windowTitle())
                     .arg(d->minimumSizeHint().width())
                     .arg(d->minimumSizeHint().height());
    EXPECT_LE(min.width(), 1366) << docks.toStdString();
    EXPECT_LE(min.height(), 740) << docks.toStdString();
    window_->resize(1366, 740);
    window_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    QTest::qWait(50); // the default dock sizes are applied in the next pass of the loop
    EXPECT_LE(window_->width(), 1366);
    EXPECT_GE(window_->editor()->width(), int(window_->width() * 0.4)) << window_->editor()->width();
    // The launch fields, their values and errors are seen without scrolling.
    auto* scroll = window_->findChild<QScrollArea*>();
    ASSERT_NE(scroll, nullptr);
    window_->launchPanel()->setLaunch({{"cdiv(n, block)", "1", "1"}, {"5000", "1", "1"}, "0"}, {});
    ASSERT_FALSE(window_->launchPanel()->issues().isEmpty());
    for (QWidget* w : window_->launchPanel()->findChildren<QLineEdit*>()) {
        const QRect inViewport(w->mapTo(scroll->viewport(), QPoint(0, 0)), w->size());
        EXPECT_TRUE(scroll->viewport()->rect().contains(inViewport)) << "a launch field is scrolled out of view";
    }
    QLabel* issues = nullptr;
    for (QLabel* l : window_->launchPanel()->findChildren<QLabel*>())
        if (l->text().contains("launch.block[0]"))
            issues = l;
    ASSERT_NE(issues, nullptr);
    const QRect issuesRect(issues->mapTo(scroll->viewport(), QPoint(0, 0)), issues->size());
    EXPECT_TRUE(scroll->viewport()->rect().intersects(issuesRect)) << "the launch errors are below the fold";
}

TEST_F(NewUser, FocusStartsInTheEditor)
{
    EXPECT_EQ(window_->focusWidget(), window_->editor());
    ASSERT_TRUE(window_->openDocument(QString(KW_SAMPLES_DIR) + "/saxpy.kwb"));
    EXPECT_EQ(window_->focusWidget(), window_->editor());
}

TEST_F(NewUser, OpeningAnotherDocumentClearsThePreviousResults)
{
    ASSERT_TRUE(runAndWait());
    QCoreApplication::processEvents(); // the timings are drawn in the next pass of the event loop
    ASSERT_NE(window_->resultsPanel()->result(), nullptr);
    ASSERT_EQ(window_->runHistory()->entries().size(), 1u);
    ASSERT_TRUE(window_->openDocument(QString(KW_SAMPLES_DIR) + "/hello_from_gpu.kwb"));
    EXPECT_EQ(window_->resultsPanel()->result(), nullptr);
    EXPECT_TRUE(window_->printfPanel()->console()->toPlainText().isEmpty());
    EXPECT_FALSE(window_->timingsPanel()->summary()->text().contains("median"));
    EXPECT_TRUE(window_->runHistory()->entries().empty());
}

TEST_F(NewUser, CompileFailedBannerGoesWhenTheErrorIsFixed)
{
    const QString good = window_->editor()->text();
    setSource(QString(good).replace("factor * in[i]", "factor * in[i] + undefined_name"));
    ASSERT_TRUE(runAndWait());
    ASSERT_EQ(window_->banner()->title(), "Compile failed");
    setSource(good);
    EXPECT_TRUE(QTest::qWaitFor([&] { return window_->banner()->isHidden(); }, 30000))
        << window_->banner()->text().toStdString();
}

// The banner sends the user to the Problems list, so that list is in front whichever view
// was (the empty Results at the first run), after a Run and after Compile alike; and the
// count reads as English ("1 error", not "1 error(s)").
TEST_F(NewUser, AFailedCompileShowsTheProblemsListInFront)
{
    window_->resize(1366, 768);
    window_->show(); // which tab is in front is seen only in a window shown
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    const QString good = window_->editor()->text();
    setSource(QString(good).replace("factor * in[i]", "factor * in[i] + undefined_name"));
    ASSERT_TRUE(runAndWait());
    QTest::qWait(50);
    auto* problems = window_->findChild<QDockWidget*>("problemsDock");
    ASSERT_NE(problems, nullptr);
    EXPECT_TRUE(problems->isVisible() && !problems->visibleRegion().isEmpty()) << "Problems is not in front";
    EXPECT_TRUE(window_->banner()->text().contains("1 error; see the Problems list"))
        << window_->banner()->text().toStdString();
    EXPECT_FALSE(window_->banner()->text().contains("(s)")) << window_->banner()->text().toStdString();

    // Another view in front, the banner closed: Compile alone brings both back.
    auto* results = window_->findChild<QDockWidget*>("resultsDock");
    results->raise();
    window_->banner()->hide();
    QTest::qWait(50);
    ASSERT_TRUE(problems->visibleRegion().isEmpty());
    QSignalSpy compiled(window_.get(), &MainWindow::compileCompleted);
    window_->compile();
    ASSERT_TRUE(compiled.wait(60000));
    QTest::qWait(50);
    EXPECT_FALSE(problems->visibleRegion().isEmpty()) << "Problems is not in front after Compile";
    EXPECT_EQ(window_->banner()->title(), "Compile failed");
    EXPECT_FALSE(window_->banner()->isHidden());
}

TEST_F(NewUser, PtxViewIsFilledAfterARun)
{
    ASSERT_TRUE(runAndWait());
    EXPECT_TRUE(QTest::qWaitFor([&] { return window_->ptxPanel()->text()->toPlainText().contains(".entry"); }, 30000))
        << window_->ptxPanel()->text()->toPlainText().left(200).toStdString();
}

TEST_F(NewUser, UndoBackToTheSavedTextClearsTheModifiedMark)
{
    QTemporaryDir dir;
    const QString path = dir.filePath("saxpy.kwb");
    ASSERT_TRUE(QFile::copy(QString(KW_SAMPLES_DIR) + "/saxpy.kwb", path));
    ASSERT_TRUE(window_->openDocument(path));
    ASSERT_FALSE(window_->isModified());
    window_->editor()->setCursorPosition(0, 0);
    window_->editor()->insert("// note\n");
    EXPECT_TRUE(window_->isModified());
    window_->editor()->undo();
    EXPECT_EQ(window_->editor()->text().toStdString(), DocumentReader::readFile(path.toStdString()).source);
    EXPECT_FALSE(window_->isModified());
    // Undo stops at the opened text: it never brings back the previous document.
    window_->editor()->undo();
    EXPECT_FALSE(window_->isModified());
}

TEST_F(NewUser, AFaultNamesTheDocumentsSourceMarksTheLineAndJumpsThere)
{
    window_->newDocument();
    setSource("__global__ void scale(const float* in, float* out, float factor, int n)\n"
              "{\n"
              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "    if (i < n)\n"
              "        out[i + 100000000] = factor * in[i];\n"
              "}\n");
    RunResult r;
    ASSERT_TRUE(runAndWait(&r));
    ASSERT_TRUE(r.fault);
    const QString text = window_->banner()->text();
    EXPECT_FALSE(text.contains("kernel.cu")) << text.toStdString();
    EXPECT_TRUE(text.contains("line 5 of the kernel source")) << text.toStdString();
    EXPECT_EQ(text.count("block ("), 1) << text.toStdString();
    EXPECT_EQ(window_->editor()->faultLine(), 5);
    EXPECT_NE(window_->editor()->markersAtLine(4) & (1 << CodeEditor::FaultMarker), 0u);
    QPushButton* go = window_->banner()->actionButton();
    ASSERT_FALSE(go->isHidden());
    EXPECT_EQ(go->text(), "Go to line 5");
    window_->editor()->setCursorPosition(0, 0);
    go->click();
    int line = -1, index = -1;
    window_->editor()->getCursorPosition(&line, &index);
    EXPECT_EQ(line, 4);
    // The Problems list has it too, to jump from there.
    ASSERT_GT(window_->problemsPanel()->topLevelItemCount(), 0);
    EXPECT_TRUE(window_->problemsPanel()->topLevelItem(0)->text(0).contains("kernel fault"));
    EXPECT_EQ(window_->problemsPanel()->topLevelItem(0)->text(1), "5");
}

TEST_F(NewUser, TwoRunsAreComparedBySourceTimingsAndOutput)
{
    ASSERT_TRUE(runAndWait());
    const QString source = window_->editor()->text();
    setSource(QString(source).replace("factor * in[i]", "factor * in[i] + 1.0f"));
    ASSERT_TRUE(runAndWait());
    ASSERT_EQ(window_->runHistory()->entries().size(), 2u);
    RunHistoryPanel* panel = window_->runHistoryPanel();
    EXPECT_EQ(panel->list()->rowCount(), 2);
    EXPECT_TRUE(panel->compareButton()->isEnabled());
    panel->compareButton()->click(); // the newest against the one before
    RunComparison* c = panel->comparison();
    const QString diff = c->sourceView()->toPlainText();
    EXPECT_TRUE(diff.contains("-         out[i] = factor * in[i];")) << diff.toStdString();
    EXPECT_TRUE(diff.contains("+         out[i] = factor * in[i] + 1.0f;")) << diff.toStdString();
    EXPECT_GE(c->timingsTable()->rowCount(), 3);
    EXPECT_TRUE(c->timingsTable()->item(0, 0)->text().contains("simulator"));
    EXPECT_EQ(c->bufferSelector()->currentText(), "out");
    EXPECT_EQ(c->differencePlot()->graph(0)->dataCount(), 1024);
    EXPECT_DOUBLE_EQ(c->differencePlot()->graph(0)->data()->at(10)->value, 1.0);
    EXPECT_TRUE(c->differenceSummary()->text().contains("1,024 of 1,024 elements differ"))
        << c->differenceSummary()->text().toStdString();
}

TEST_F(NewUser, EditAndHelpMenusOfferTheUsualActionsAndTheKeys)
{
    QStringList edit;
    for (QAction* top : window_->menuBar()->actions())
        if (QString(top->text()).remove('&') == "Edit")
            for (QAction* a : top->menu()->actions())
                edit << QString(a->text()).remove('&');
    for (const char* name : {"Undo", "Redo", "Cut", "Copy", "Paste"})
        EXPECT_TRUE(edit.contains(name)) << name;
    const QStringList keys = HelpMenu::shortcutLines(window_.get());
    EXPECT_TRUE(keys.filter("Run › Run\t").value(0).contains("F5")) << keys.join('\n').toStdString();
    EXPECT_FALSE(keys.filter("Edit › Undo").isEmpty());
}

TEST_F(NewUser, PresentationModeEnlargesPlotsPrintfAndTables)
{
    ASSERT_TRUE(runAndWait());
    QCustomPlot* plot = window_->resultsPanel()->linePlot()->plot();
    const qreal tick = plot->xAxis->tickLabelFont().pointSizeF();
    const qreal console = window_->printfPanel()->console()->font().pointSizeF();
    window_->setPresentationMode(true);
    EXPECT_GT(plot->xAxis->tickLabelFont().pointSizeF(), tick * 1.4);
    EXPECT_GT(plot->xAxis->labelFont().pointSizeF(), tick * 1.4);
    EXPECT_GT(window_->printfPanel()->console()->font().pointSizeF(), console * 1.4);
    EXPECT_EQ(window_->editor()->wrapMode(), QsciScintilla::WrapWord);
    window_->setPresentationMode(false);
    EXPECT_DOUBLE_EQ(plot->xAxis->tickLabelFont().pointSizeF(), tick);
    EXPECT_DOUBLE_EQ(window_->printfPanel()->console()->font().pointSizeF(), console);
    EXPECT_EQ(window_->editor()->wrapMode(), QsciScintilla::WrapNone);
}
