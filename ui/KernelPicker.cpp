#include "KernelPicker.hpp"

#include "compile/SignatureParser.hpp"

#include <QLineEdit>

namespace kw {

namespace {
QString baseName(const QString& name)
{
    const int lt = name.indexOf('<');
    return (lt < 0 ? name : name.left(lt)).trimmed();
}
} // namespace

KernelPicker::KernelPicker(QWidget* parent)
    : QComboBox(parent)
{
    setEditable(true);
    setInsertPolicy(QComboBox::NoInsert);
    // A dozen characters at least (a longer name scrolls in the field): the row it is in
    // is the editor's, whose width the docks need at 1366x768.
    setMinimumContentsLength(12);
    setToolTip(tr("The __global__ function to launch; type an instantiation such as scale<float,128> for a template"));
    auto changed = [this] {
        const QString now = currentKernel();
        if (now != last_) {
            last_ = now;
            emit kernelChanged(now);
        }
    };
    connect(this, &QComboBox::currentTextChanged, this, changed);
}

void KernelPicker::setKernels(const std::vector<KernelSignature>& kernels)
{
    kernels_ = kernels;
    const QString keep = currentKernel();
    QSignalBlocker block(this);
    clear();
    for (const KernelSignature& k : kernels_) {
        QString label = QString::fromStdString(k.name);
        if (!k.templateParams.empty())
            label += "<>";
        addItem(label, QString::fromStdString(k.name));
        if (!k.file.empty())
            setItemData(count() - 1, tr("in %1, line %2").arg(QString::fromStdString(k.file)).arg(k.line),
                        Qt::ToolTipRole);
    }
    bool kept = false;
    for (const KernelSignature& k : kernels_)
        kept = kept || QString::fromStdString(k.name) == baseName(keep);
    if (kept)
        setEditText(keep);
    else if (!kernels_.empty())
        setCurrentIndex(0);
    else
        setEditText(QString());
    block.unblock();
    if (currentKernel() != last_) {
        last_ = currentKernel();
        emit kernelChanged(last_);
    }
}

QString KernelPicker::currentKernel() const
{
    QString t = currentText().trimmed();
    if (t.endsWith("<>"))
        t.chop(2);
    return t;
}

void KernelPicker::setCurrentKernel(const QString& name)
{
    const QSignalBlocker block(this);
    setEditText(name);
    last_ = currentKernel();
}

std::optional<KernelSignature> KernelPicker::currentSignature() const
{
    const QString name = currentKernel();
    for (const KernelSignature& k : kernels_) {
        if (QString::fromStdString(k.name) != baseName(name))
            continue;
        if (k.templateParams.empty() || !name.contains('<'))
            return k;
        try {
            return instantiate(k, name.toStdString());
        } catch (const std::exception&) {
            return k; // incomplete instantiation while typing: show the template's params
        }
    }
    return std::nullopt;
}

} // namespace kw
