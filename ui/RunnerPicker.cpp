#include "RunnerPicker.hpp"

#include "MenuButton.hpp"
#include "RunnerClient.hpp"
#include "RunnerEditDialog.hpp"
#include "Settings.hpp"

#include <algorithm>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QSizePolicy>
#include <QToolButton>

namespace kw {

namespace {
QString byteText(quint64 bytes)
{
    if (bytes < 1024)
        return QString("%1 B").arg(bytes);
    if (bytes < (1u << 20))
        return QString("%1 KiB").arg(double(bytes) / 1024, 0, 'f', 1);
    return QString("%1 MiB").arg(double(bytes) / (1 << 20), 0, 'f', 1);
}
} // namespace

RunnerPicker::RunnerPicker(RunnerClient* client, Settings* settings, QWidget* parent)
    : QWidget(parent)
    , client_(client)
    , settings_(settings)
{
    combo_ = new QComboBox(this);
    combo_->setToolTip(tr("Where jobs run: this computer, or a saved runner reached by ssh or srun"));
    combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    manage_ = new MenuButton(tr("Runners"), this);
    auto* menu = new QMenu(manage_);
    menu->addAction(tr("Add a runner..."), this, &RunnerPicker::addFromDialog);
    menu->addAction(tr("Remove this runner"), this, [this] { removeRunner(currentRunner()); });
    manage_->setMenu(menu);
    reconnect_ = new QToolButton(this);
    reconnect_->setText(tr("Reconnect"));
    reconnect_->setToolTip(tr("Connect to the runner again; the document is not touched"));
    reconnect_->hide();
    status_ = new QLabel(this);
    status_->setObjectName("runnerStatus");
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long status must not widen the editor's row and squeeze the docks: it is
    // clipped, and its tooltip has all of it.
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // Wide enough for what it is ("connected…"), no wider: the row beside it is the
    // editor's, and its width is taken from the docks at 1366x768.
    status_->setMinimumWidth(status_->fontMetrics().horizontalAdvance(tr("connected") + QChar(0x2026)) + 4);

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Runner:"), this));
    row->addWidget(combo_);
    row->addWidget(manage_);
    row->addWidget(reconnect_);
    row->addWidget(status_, 1);

    connect(combo_, &QComboBox::currentIndexChanged, this, [this] { apply(true); });
    connect(reconnect_, &QToolButton::clicked, this, [this] {
        reconnect_->hide();
        showStatus(tr("connecting..."), false);
        client_->start();
    });
    connect(client_, &RunnerClient::runnerConnected, this, [this] {
        reconnect_->hide();
        showConnected();
    });
    // The devices may come after the connection (a restarted runner, Devices asked again).
    connect(client_, &RunnerClient::devicesChanged, this, [this] {
        if (statusFull_.startsWith(tr("connected")))
            showConnected();
    });
    connect(client_, &RunnerClient::runnerLost, this, [this](const QString& what) {
        reconnect_->setVisible(client_->isRemote());
        showStatus(tr("not connected: %1").arg(what), true);
        status_->setToolTip(what);
    });
    connect(client_, &RunnerClient::runResultReady, this, [this](int, const std::shared_ptr<const RunResult>& r) {
        const QString where = client_->runnerName().isEmpty() ? tr("this computer") : client_->runnerName();
        QString text = tr("last result: %1 on %2").arg(QString::fromStdString(r->device.name), where);
        if (client_->isRemote())
            text += tr(" (sent %1, received %2)")
                        .arg(byteText(client_->lastJobBytesSent()), byteText(client_->lastJobBytesReceived()));
        showStatus(text, false);
    });

    // The window starts the runner once it is built.
    rebuild(settings_->lastRunner());
    apply(false);
}

QStringList RunnerPicker::runnerNames() const
{
    QStringList names;
    for (const auto& r : settings_->savedRunners())
        names << r.first;
    return names;
}

void RunnerPicker::rebuild(const QString& select)
{
    const QSignalBlocker block(combo_);
    combo_->clear();
    combo_->addItem(tr("This computer"), QString());
    for (const auto& r : settings_->savedRunners())
        combo_->addItem(r.first, r.first);
    const int i = combo_->findData(select);
    combo_->setCurrentIndex(i >= 0 ? i : 0);
}

void RunnerPicker::apply(bool connectNow)
{
    const QString name = currentRunner();
    QString command;
    for (const auto& r : settings_->savedRunners())
        if (r.first == name)
            command = r.second;
    settings_->setLastRunner(name);
    combo_->setToolTip(command.isEmpty() ? tr("kwb-run on this computer") : command);
    reconnect_->hide();
    status_->setToolTip({});
    client_->setRunner(name, command);
    showStatus(command.isEmpty() ? QString() : tr("connecting..."), false);
    if (connectNow)
        client_->start();
}

void RunnerPicker::addRunner(const QString& name, const QString& command)
{
    auto list = settings_->savedRunners();
    bool replaced = false;
    for (auto& r : list)
        if (r.first == name) {
            r.second = command;
            replaced = true;
        }
    if (!replaced)
        list.append({name, command});
    settings_->setSavedRunners(list);
    rebuild(name);
    apply(true);
}

void RunnerPicker::removeRunner(const QString& name)
{
    if (name.isEmpty())
        return;
    auto list = settings_->savedRunners();
    list.removeIf([&](const auto& r) { return r.first == name; });
    settings_->setSavedRunners(list);
    rebuild(QString());
    apply(true);
}

void RunnerPicker::selectRunner(const QString& name)
{
    const int i = combo_->findData(name);
    if (i >= 0)
        combo_->setCurrentIndex(i);
}

QString RunnerPicker::currentRunner() const { return combo_->currentData().toString(); }
QString RunnerPicker::statusText() const { return statusFull_; }

QString RunnerPicker::shownStatusText() const { return status_->text(); }

void RunnerPicker::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    elideStatus();
}

// The row is shared with the kernel picker and the runner's buttons: a long status is
// cut with an ellipsis rather than clipped to nothing.
void RunnerPicker::elideStatus()
{
    status_->setText(status_->fontMetrics().elidedText(statusFull_, Qt::ElideRight, std::max(0, status_->width())));
}

void RunnerPicker::showConnected()
{
    QStringList names;
    for (const DeviceInfo& d : client_->devices())
        names << QString::fromStdString(d.id + " " + d.name);
    showStatus(names.isEmpty() ? tr("connected, asking for its devices…") : tr("connected: %1").arg(names.join(", ")),
               false);
}

void RunnerPicker::showStatus(const QString& text, bool problem)
{
    statusFull_ = text;
    elideStatus();
    if (!problem)
        status_->setToolTip(text);
    status_->setStyleSheet(problem ? "color: #b00020;" : QString());
}

void RunnerPicker::addFromDialog()
{
    RunnerEditDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted)
        addRunner(dialog.name(), dialog.command());
}

} // namespace kw
