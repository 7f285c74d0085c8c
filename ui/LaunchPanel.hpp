#pragma once
// Grid and block as expressions with their values shown live, dynamic shared
// memory, repeats, time limit and device. Values over the chosen device's
// limits turn red with the reason, before Run. Shows the kernel's resources,
// the theoretical occupancy and the launch shape.
#include "compile/CompileResult.hpp"
#include "compile/KernelFootprint.hpp"
#include "doc/Document.hpp"
#include "launch/LaunchTypes.hpp"

#include <QWidget>

#include <array>
#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace kw {

class LaunchShapeView;

class LaunchPanel : public QWidget {
    Q_OBJECT
public:
    explicit LaunchPanel(QWidget* parent = nullptr);

    void setLaunch(const LaunchSpecText& launch, const RunSettings& run);
    LaunchSpecText launch() const;
    RunSettings runSettings() const;
    void setVariables(const std::vector<std::pair<std::string, std::string>>& variables);
    // A note above the launch fields ("Values of its first pass"; the dock's title names
    // the step), and whether there is a launch to edit: in a document of steps, only
    // while a launch step is selected.
    void setLaunchTitle(const QString& title);
    void setLaunchEditable(bool editable);
    // Warm-up and repeats: a document of steps runs each launch once, so they do not apply.
    void setRepeatsApply(bool apply);

    // Devices the runner reported; the simulator "sim" is always offered.
    void setDevices(const std::vector<DeviceInfo>& devices);
    QString currentDevice() const;
    void setCurrentDevice(const QString& id);
    DeviceInfo currentDeviceInfo() const;
    QString resourcesText() const; // registers, memory and occupancy as shown

    // Resources of the chosen kernel from a compile; loweredName picks its .entry.
    void setCompileResult(const CompileResult& result, const std::string& loweredName);

    // Problems that stop a launch, each naming the field and the limit; empty when fine.
    QStringList issues() const { return issues_; }
    std::optional<Dim3> grid() const { return grid_; }
    std::optional<Dim3> block() const { return block_; }

    LaunchShapeView* shapeView() const { return shape_; }

signals:
    void changed();
    void deviceChanged(const QString& id);

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    // A wrapped label's layout gives it one line when the dock is short; it keeps the
    // height its lines need at its width, and the dock's scroll area scrolls instead.
    void fitWrappedLabels();
    void evaluate();
    void updateResources();

    std::vector<std::pair<std::string, std::string>> variables_;
    std::vector<DeviceInfo> devices_;
    std::array<QLineEdit*, 3> gridEdit_{}, blockEdit_{};
    std::array<QLabel*, 3> gridValue_{}, blockValue_{};
    QLineEdit* shared_;
    QLabel* sharedValue_;
    QSpinBox* warmup_;
    QSpinBox* repeats_;
    QDoubleSpinBox* timeLimit_;
    QComboBox* device_;
    QComboBox* l2Flush_;
    QGroupBox* dims_;
    QLabel* issuesLabel_;
    QLabel* resources_;
    LaunchShapeView* shape_;
    QStringList issues_;
    std::optional<Dim3> grid_, block_;
    std::optional<std::uint64_t> sharedBytes_;
    KernelFootprint footprint_; // of the kernel last compiled
    QString registerProblem_;   // the block needs more registers than a block may have
    RunSettings run_;           // as the document last gave it: the fields without a widget stay
};

} // namespace kw
