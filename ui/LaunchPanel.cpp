#include "LaunchPanel.hpp"

#include "launch/LaunchLimits.hpp"

#include "LaunchShapeView.hpp"
#include "ThemeColours.hpp"
#include "compile/KernelFootprint.hpp"
#include "doc/VariableScope.hpp"
#include "launch/Occupancy.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace kw {

namespace {
const char* axes[] = {"x", "y", "z"};
std::uint32_t& axis(Dim3& d, int i) { return i == 0 ? d.x : i == 1 ? d.y : d.z; }
} // namespace

LaunchPanel::LaunchPanel(QWidget* parent)
    : QWidget(parent)
{
    // Coloured through the palette, not a style sheet, so they follow font changes
    // (presentation mode) like every other label.
    auto tint = [](QLabel* l, const QColor& c) {
        QPalette p = l->palette();
        p.setColor(QPalette::WindowText, c);
        l->setPalette(p);
    };
    const QColor valueColour = ThemeColours::value(palette());
    // One compact group: the fields, their values and their errors are seen together
    // without scrolling, even on a 1366x768 screen.
    auto* dims = new QGroupBox(this); // titled only for a launch inside a repeat
    dims_ = dims;
    auto* g = new QGridLayout(dims);
    g->setVerticalSpacing(2);
    device_ = new QComboBox(dims);
    device_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    device_->setMinimumContentsLength(12);
    g->addWidget(new QLabel(tr("device")), 0, 0);
    g->addWidget(device_, 0, 1, 1, 3);
    g->addWidget(new QLabel(tr("grid")), 2, 0);
    g->addWidget(new QLabel(tr("block")), 4, 0);
    for (int i = 0; i < 3; ++i) {
        g->addWidget(new QLabel(axes[i]), 1, i + 1, Qt::AlignCenter);
        gridEdit_[i] = new QLineEdit(dims);
        blockEdit_[i] = new QLineEdit(dims);
        gridValue_[i] = new QLabel(dims);
        blockValue_[i] = new QLabel(dims);
        for (QLabel* l : {gridValue_[i], blockValue_[i]})
            tint(l, valueColour);
        g->addWidget(gridEdit_[i], 2, i + 1);
        g->addWidget(gridValue_[i], 3, i + 1);
        g->addWidget(blockEdit_[i], 4, i + 1);
        g->addWidget(blockValue_[i], 5, i + 1);
    }
    shared_ = new QLineEdit("0", dims);
    sharedValue_ = new QLabel(dims);
    tint(sharedValue_, valueColour);
    g->addWidget(new QLabel(tr("shared")), 6, 0);
    g->addWidget(shared_, 6, 1);
    g->addWidget(sharedValue_, 6, 2, 1, 2);
    shared_->setToolTip(tr("Dynamic shared memory per block, in bytes"));

    issuesLabel_ = new QLabel(dims);
    issuesLabel_->setWordWrap(true);
    issuesLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tint(issuesLabel_, ThemeColours::error(palette()));
    g->addWidget(issuesLabel_, 7, 0, 1, 4);

    warmup_ = new QSpinBox(dims);
    warmup_->setRange(0, 1000);
    repeats_ = new QSpinBox(dims);
    repeats_->setRange(1, 100000);
    timeLimit_ = new QDoubleSpinBox(dims);
    timeLimit_->setRange(0.1, 3600);
    timeLimit_->setSuffix(" s");
    timeLimit_->setValue(10);
    l2Flush_ = new QComboBox(dims);
    l2Flush_->addItem(tr("L2 flush: auto"), int(L2Flush::Auto));
    l2Flush_->addItem(tr("L2 flush: on"), int(L2Flush::On));
    l2Flush_->addItem(tr("L2 flush: off"), int(L2Flush::Off));
    l2Flush_->setToolTip(tr("Empty the GPU's L2 cache before each timed launch, as Nsight Compute does; auto: "
                            "unless the kernel takes under 10 \u00b5s"));
    // In the grid's columns, two to a row: one row of all three is wider than the dock
    // column of a 1366x768 screen.
    g->addWidget(new QLabel(tr("warm-up")), 8, 0);
    g->addWidget(warmup_, 8, 1);
    g->addWidget(new QLabel(tr("repeats")), 8, 2, Qt::AlignRight);
    g->addWidget(repeats_, 8, 3);
    g->addWidget(new QLabel(tr("time limit")), 9, 0);
    g->addWidget(timeLimit_, 9, 1);
    g->addWidget(l2Flush_, 9, 2, 1, 2);
    timeLimit_->setToolTip(tr("The runner is stopped when a launch takes longer"));

    resources_ = new QLabel(this);
    resources_->setWordWrap(true);
    shape_ = new LaunchShapeView(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(dims);
    layout->addWidget(resources_);
    // The drawing is a widget of its own: the window shows it in a dock of its own.
    layout->addWidget(shape_, 1);

    for (QLineEdit* e : findChildren<QLineEdit*>())
        connect(e, &QLineEdit::textEdited, this, [this] {
            evaluate();
            emit changed();
        });
    connect(warmup_, &QSpinBox::valueChanged, this, &LaunchPanel::changed);
    connect(repeats_, &QSpinBox::valueChanged, this, &LaunchPanel::changed);
    connect(timeLimit_, &QDoubleSpinBox::valueChanged, this, &LaunchPanel::changed);
    connect(l2Flush_, &QComboBox::currentIndexChanged, this, &LaunchPanel::changed);
    connect(device_, &QComboBox::currentIndexChanged, this, [this] {
        evaluate();
        emit deviceChanged(currentDevice());
    });
    setDevices({});
    setRepeatsApply(true);
    evaluate();
}

void LaunchPanel::setLaunch(const LaunchSpecText& launch, const RunSettings& run)
{
    for (int i = 0; i < 3; ++i) {
        gridEdit_[i]->setText(i < int(launch.grid.size()) ? QString::fromStdString(launch.grid[i]) : "1");
        blockEdit_[i]->setText(i < int(launch.block.size()) ? QString::fromStdString(launch.block[i]) : "1");
    }
    shared_->setText(QString::fromStdString(launch.sharedBytes));
    const QSignalBlocker b1(warmup_), b2(repeats_), b3(timeLimit_), b4(l2Flush_);
    warmup_->setValue(run.warmup);
    repeats_->setValue(run.repeats);
    timeLimit_->setValue(run.timeLimitSeconds);
    l2Flush_->setCurrentIndex(l2Flush_->findData(int(run.l2Flush)));
    run_ = run;
    evaluate();
}

void LaunchPanel::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    fitWrappedLabels();
}

void LaunchPanel::fitWrappedLabels()
{
    for (QLabel* l : {issuesLabel_, resources_})
        if (l->isVisible() && l->width() > 0)
            l->setMinimumHeight(l->text().isEmpty() ? 0 : l->heightForWidth(l->width()));
}

void LaunchPanel::setLaunchTitle(const QString& title) { dims_->setTitle(title); }

void LaunchPanel::setLaunchEditable(bool editable)
{
    for (int i = 0; i < 3; ++i)
        for (QWidget* w : std::initializer_list<QWidget*>{gridEdit_[i], blockEdit_[i], gridValue_[i], blockValue_[i]})
            w->setEnabled(editable);
    shared_->setEnabled(editable);
    sharedValue_->setEnabled(editable);
}

void LaunchPanel::setRepeatsApply(bool apply)
{
    const QString why = tr("A document of steps runs each launch once: its buffers change from step to step");
    warmup_->setEnabled(apply);
    repeats_->setEnabled(apply);
    l2Flush_->setEnabled(apply);
    warmup_->setToolTip(apply ? tr("Untimed launches before the timed ones") : why);
    repeats_->setToolTip(apply ? tr("Timed launches; the outputs are those of the first launch") : why);
}

LaunchSpecText LaunchPanel::launch() const
{
    LaunchSpecText l;
    for (int i = 0; i < 3; ++i) {
        l.grid[i] = gridEdit_[i]->text().trimmed().toStdString();
        l.block[i] = blockEdit_[i]->text().trimmed().toStdString();
    }
    l.sharedBytes = shared_->text().trimmed().toStdString();
    return l;
}

RunSettings LaunchPanel::runSettings() const
{
    RunSettings r = run_;
    r.warmup = warmup_->value();
    r.repeats = repeats_->value();
    r.timeLimitSeconds = timeLimit_->value();
    r.l2Flush = L2Flush(l2Flush_->currentData().toInt());
    return r;
}

void LaunchPanel::setVariables(const std::vector<std::pair<std::string, std::string>>& variables)
{
    variables_ = variables;
    evaluate();
}

void LaunchPanel::setDevices(const std::vector<DeviceInfo>& devices)
{
    const QString keep = currentDevice();
    const DeviceInfo before = currentDeviceInfo();
    devices_.clear();
    for (const DeviceInfo& d : devices)
        if (d.id != "sim")
            devices_.push_back(d);
    DeviceInfo sim;
    sim.id = "sim";
    sim.name = "CPU simulator";
    for (const DeviceInfo& d : devices)
        if (d.id == "sim")
            sim = d;
    devices_.push_back(sim);
    const QSignalBlocker block(device_);
    device_->clear();
    for (const DeviceInfo& d : devices_) {
        QString label = QString::fromStdString(d.id + "  " + d.name);
        if (d.ccMajor > 0)
            label += QString("  (sm_%1%2)").arg(d.ccMajor).arg(d.ccMinor);
        device_->addItem(label, QString::fromStdString(d.id));
    }
    const int idx = device_->findData(keep);
    device_->setCurrentIndex(idx >= 0 ? idx : 0);
    evaluate();
    // The runner's list may describe the same device better (the simulator's
    // placeholder has no compute capability): that changes what to compile for.
    const DeviceInfo after = currentDeviceInfo();
    if (currentDevice() != keep || after.ccMajor != before.ccMajor || after.ccMinor != before.ccMinor)
        emit deviceChanged(currentDevice());
}

QString LaunchPanel::currentDevice() const { return device_->currentData().toString(); }

void LaunchPanel::setCurrentDevice(const QString& id)
{
    const int idx = device_->findData(id);
    if (idx >= 0)
        device_->setCurrentIndex(idx);
}

DeviceInfo LaunchPanel::currentDeviceInfo() const
{
    const int i = device_->currentIndex();
    return i >= 0 && i < int(devices_.size()) ? devices_[i] : DeviceInfo{};
}

QString LaunchPanel::resourcesText() const { return resources_->text(); }

void LaunchPanel::setCompileResult(const CompileResult& result, const std::string& loweredName)
{
    footprint_ = KernelFootprint::of(result, loweredName);
    evaluate();
}

void LaunchPanel::evaluate()
{
    issues_.clear();
    registerProblem_.clear();
    std::optional<VariableScope> scope;
    try {
        scope = VariableScope::evaluate(variables_);
    } catch (const std::exception& e) {
        issues_ << QString::fromUtf8(e.what());
    }
    const DeviceInfo dev = currentDeviceInfo();
    const DeviceLimits& lim = dev.limits;
    const QString bad = ThemeColours::badFieldStyle(palette());
    const QString devName = QString::fromStdString(dev.name.empty() ? dev.id : dev.name);
    // The core's wording, led by the field it concerns and the device it was checked against.
    auto onDevice = [&](const QString& field, const std::string& problem) {
        return tr("%1 on %2: %3").arg(field, devName, QString::fromStdString(problem));
    };

    using Field = LimitViolation::Field;
    auto evalDim = [&](QLineEdit* edit, QLabel* label, const std::string& field, Field kind,
                       int axisIndex) -> std::optional<std::uint32_t> {
        edit->setStyleSheet(QString());
        edit->setToolTip(QString());
        label->setText(QString());
        if (!scope)
            return std::nullopt;
        QString problem;
        std::int64_t v = 0;
        try {
            v = scope->evaluateInteger(edit->text().trimmed().toStdString(), field);
            label->setText(QString("= %L1").arg(v));
            if (auto p = checkDimension(kind, axisIndex, v, lim))
                problem = onDevice(QString::fromStdString(field), *p);
        } catch (const std::exception& e) {
            problem = QString::fromUtf8(e.what());
            label->setText(tr("error"));
        }
        if (!problem.isEmpty()) {
            edit->setStyleSheet(bad);
            edit->setToolTip(problem);
            issues_ << problem;
            return std::nullopt;
        }
        return std::uint32_t(v);
    };
    Dim3 g, b;
    bool ok = true;
    for (int i = 0; i < 3; ++i) {
        auto gv
            = evalDim(gridEdit_[i], gridValue_[i], std::string("launch.grid[") + char('0' + i) + "]", Field::Grid, i);
        auto bv = evalDim(blockEdit_[i], blockValue_[i], std::string("launch.block[") + char('0' + i) + "]",
                          Field::Block, i);
        ok = ok && gv && bv;
        if (gv)
            axis(g, i) = *gv;
        if (bv)
            axis(b, i) = *bv;
    }
    if (ok)
        if (auto p = checkThreadsPerBlock(b, lim)) {
            const QString text = onDevice("launch.block", *p);
            for (QLineEdit* e : blockEdit_) {
                e->setStyleSheet(bad);
                e->setToolTip(text);
            }
            issues_ << text;
            ok = false;
        }
    // Registers are known once ptxas has compiled for a GPU; the simulator has no
    // register file, so there the figure is a note, not a reason to refuse the run.
    if (ok && footprint_.registers() > 0) {
        const std::uint64_t regs = Occupancy::registersPerBlock(b.volume(), footprint_.ptxas->registers, lim.warpSize);
        if (regs > std::uint64_t(lim.maxRegistersPerBlock)) {
            registerProblem_ = tr("the block needs %L1 registers (%L2 threads x %3 registers, as ptxas allocated "
                                  "them for %4), over the limit of %L5 per block: a GPU refuses this launch")
                                   .arg(regs)
                                   .arg(b.volume())
                                   .arg(footprint_.ptxas->registers)
                                   .arg(QString::fromStdString(footprint_.ptxas->arch))
                                   .arg(lim.maxRegistersPerBlock);
            if (dev.id != "sim") {
                for (QLineEdit* e : blockEdit_) {
                    e->setStyleSheet(bad);
                    e->setToolTip(registerProblem_);
                }
                issues_ << registerProblem_;
                ok = false;
            }
        }
    }
    grid_ = ok ? std::optional<Dim3>(g) : std::nullopt;
    block_ = ok ? std::optional<Dim3>(b) : std::nullopt;

    shared_->setStyleSheet(QString());
    sharedValue_->setText(QString());
    sharedBytes_.reset();
    if (scope) {
        try {
            const std::int64_t s
                = scope->evaluateInteger(shared_->text().trimmed().toStdString(), "launch.shared_bytes");
            sharedValue_->setText(QString("= %L1 B").arg(s));
            KernelLimits kernel;
            kernel.staticShared = footprint_.staticShared;
            if (auto p = checkSharedMemory(s, lim, kernel)) {
                issues_ << onDevice("launch.shared_bytes", *p);
                shared_->setStyleSheet(bad);
            } else {
                sharedBytes_ = std::uint64_t(s);
            }
        } catch (const std::exception& e) {
            issues_ << QString::fromUtf8(e.what());
            shared_->setStyleSheet(bad);
        }
    }
    issuesLabel_->setText(issues_.join('\n'));
    fitWrappedLabels();
    issuesLabel_->setVisible(!issues_.isEmpty());
    if (ok)
        shape_->setShape(g, b, lim.warpSize);
    else
        shape_->clearShape();
    updateResources();
}

void LaunchPanel::updateResources()
{
    const DeviceInfo dev = currentDeviceInfo();
    QStringList lines;
    if (footprint_.ptxas) {
        QString regs = tr("Registers: %1 per thread, stack %L2 B per thread, static shared %L3 B per block "
                          "(ptxas for %4)")
                           .arg(footprint_.ptxas->registers)
                           .arg(footprint_.ptxas->stackBytes)
                           .arg(footprint_.staticShared)
                           .arg(QString::fromStdString(footprint_.ptxas->arch));
        if (footprint_.ptxas->spillStoreBytes + footprint_.ptxas->spillLoadBytes > 0)
            regs += tr("\nRegister spills: %L1 B stored, %L2 B loaded per thread: local memory traffic")
                        .arg(footprint_.ptxas->spillStoreBytes)
                        .arg(footprint_.ptxas->spillLoadBytes);
        lines << regs;
    } else if (footprint_.declared) {
        lines << tr("Static shared %L1 B, local (stack) %L2 B per thread; registers: assigned by ptxas on the device "
                    "(the PTX declares %3 virtual)")
                     .arg(footprint_.staticShared)
                     .arg(footprint_.localBytes)
                     .arg(footprint_.virtualRegisters);
    } else {
        lines << tr("Resources appear after a successful compile.");
    }
    if (block_) {
        const int registers = footprint_.registers();
        const Occupancy o = Occupancy::compute(dev.limits, block_->volume(),
                                               footprint_.staticShared + sharedBytes_.value_or(0), registers);
        lines << tr("Theoretical occupancy on %1: %2 % (%3 of %4 warps per SM, %5 blocks per SM, limited by %6%7)")
                     .arg(QString::fromStdString(dev.name.empty() ? dev.id : dev.name))
                     .arg(int(o.fraction * 100 + 0.5))
                     .arg(o.activeWarps)
                     .arg(o.maxWarps)
                     .arg(o.blocksPerSm)
                     .arg(QString::fromStdString(o.limitedBy))
                     .arg(registers > 0 ? QString() : tr("; registers not counted"));
    }
    if (!registerProblem_.isEmpty() && dev.id == "sim")
        lines << tr("On a GPU: %1.").arg(registerProblem_);
    resources_->setText(lines.join('\n'));
    fitWrappedLabels();
}

} // namespace kw
