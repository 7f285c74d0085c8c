// The live check compiles for the chosen device's real architecture, so the launch
// panel shows what ptxas allocated rather than the PTX's virtual registers.
#include "LaunchPanel.hpp"
#include "LiveDiagnostics.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "test_locations.hpp"
#include "test_window_options.hpp"

#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

using namespace kw;

TEST(LiveResources, TheSimulatorsArchitectureGetsAPtxasReport)
{
    const test::TestLocations locations("live-resources");
    ASSERT_TRUE(locations.ok());
    MainWindow w(test::windowOptions());
    QSignalSpy devices(w.runner(), &RunnerClient::devicesChanged);
    ASSERT_TRUE(w.openDocument(QString(KW_SAMPLES_DIR) + "/reduction_shared.kwb"));
    // The simulator's entry in the runner's list carries its compute capability (7.5).
    ASSERT_TRUE(devices.count() > 0 || devices.wait(20000));
    w.launchPanel()->setCurrentDevice("sim");
    ASSERT_TRUE(QTest::qWaitFor([&] { return w.launchPanel()->resourcesText().contains("Registers:"); }, 30000))
        << w.launchPanel()->resourcesText().toStdString();
    const QString text = w.launchPanel()->resourcesText();
    EXPECT_TRUE(text.contains("ptxas for sm_75")) << text.toStdString();
    EXPECT_FALSE(text.contains("registers not counted")) << text.toStdString();
}
