#include "BufferEditor.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStackedWidget>

namespace kw {

namespace {
constexpr DType allDTypes[] = {DType::I8,  DType::U8,  DType::I16, DType::U16,  DType::I32, DType::U32,
                               DType::I64, DType::U64, DType::F16, DType::BF16, DType::F32, DType::F64};
const char* kindNames[] = {"zeros", "fill", "arange", "linspace", "uniform", "normal", "expression", "file"};

QString num(double v) { return QString::number(v, 'g', 17); }
} // namespace

BufferEditor::BufferEditor(QWidget* parent)
    : QWidget(parent)
{
    title_ = new QLabel(this);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    count_ = new QLineEdit(this);
    count_->setToolTip(tr("Element count: an expression over the variables, e.g. n or w*h"));
    shape_ = new QLineEdit(this);
    shape_->setPlaceholderText(tr("optional, e.g. h, w"));
    shape_->setToolTip(tr("2-D or 3-D display shape (slowest first); the product must equal the count"));
    dtype_ = new QComboBox(this);
    for (DType t : allDTypes)
        dtype_->addItem(toString(t), int(t));
    direction_ = new QComboBox(this);
    direction_->addItem("in", int(Direction::In));
    direction_->addItem("out", int(Direction::Out));
    direction_->addItem("inout", int(Direction::InOut));
    kind_ = new QComboBox(this);
    for (const char* k : kindNames)
        kind_->addItem(k);

    params_ = new QStackedWidget(this);
    auto page = [this](std::initializer_list<std::pair<QString, QLineEdit**>> fields, QWidget* extra = nullptr) {
        auto* w = new QWidget(params_);
        auto* form = new QFormLayout(w);
        form->setContentsMargins(0, 0, 0, 0);
        for (auto& [label, edit] : fields) {
            *edit = new QLineEdit(w);
            form->addRow(label, *edit);
        }
        if (extra)
            form->addRow(extra);
        params_->addWidget(w);
    };
    page({});
    page({{tr("Value"), &fillValue_}});
    page({{tr("Start"), &arangeStart_}, {tr("Step"), &arangeStep_}});
    page({{tr("Start"), &linStart_}, {tr("Stop"), &linStop_}});
    page({{tr("Low"), &low_}, {tr("High"), &high_}, {tr("Seed"), &uniSeed_}});
    page({{tr("Mean"), &mean_}, {tr("Std dev"), &stddev_}, {tr("Seed"), &normSeed_}});
    page({{tr("f(i, x, y, z)"), &expr_}});
    auto* browse = new QPushButton(tr("Choose .npy / .csv / .bin…"), this);
    page({{tr("File"), &file_}}, browse);
    connect(browse, &QPushButton::clicked, this, &BufferEditor::pickFile);

    plot_ = new QCheckBox(tr("Plot this buffer"), this);
    previewLabel_ = new QLabel(this);
    previewLabel_->setWordWrap(true);
    previewLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    previewLabel_->setStyleSheet("color: #444; font-family: monospace;");

    auto* form = new QFormLayout(this);
    form->addRow(title_);
    form->addRow(tr("Count"), count_);
    form->addRow(tr("Shape"), shape_);
    form->addRow(tr("Type"), dtype_);
    form->addRow(tr("Direction"), direction_);
    form->addRow(tr("Initialiser"), kind_);
    form->addRow(params_);
    form->addRow(plot_);
    form->addRow(tr("Preview"), previewLabel_);

    connect(kind_, &QComboBox::currentIndexChanged, this, [this](int i) {
        params_->setCurrentIndex(i);
        emitChanged();
    });
    for (QLineEdit* e : findChildren<QLineEdit*>())
        connect(e, &QLineEdit::textEdited, this, &BufferEditor::emitChanged);
    connect(dtype_, &QComboBox::currentIndexChanged, this, &BufferEditor::emitChanged);
    connect(direction_, &QComboBox::currentIndexChanged, this, &BufferEditor::emitChanged);
    connect(plot_, &QCheckBox::toggled, this, &BufferEditor::emitChanged);
    setEnabled(false);
}

void BufferEditor::setPreview(Preview preview)
{
    preview_ = std::move(preview);
    refreshPreview();
}

void BufferEditor::refreshPreview()
{
    previewLabel_->setText(preview_ && isEnabled() ? preview_(buffer()) : QString());
}

void BufferEditor::emitChanged()
{
    if (loading_)
        return;
    refreshPreview();
    emit changed();
}

void BufferEditor::setBuffer(const BufferSpec& b)
{
    loading_ = true;
    setEnabled(true);
    name_ = QString::fromStdString(b.name);
    title_->setText(tr("Buffer %1").arg(name_));
    count_->setText(QString::fromStdString(b.count));
    QStringList shape;
    for (const std::string& s : b.shape)
        shape << QString::fromStdString(s);
    shape_->setText(shape.join(", "));
    dtype_->setCurrentIndex(dtype_->findData(int(b.dtype)));
    direction_->setCurrentIndex(direction_->findData(int(b.direction)));
    kind_->setCurrentIndex(int(b.init.kind));
    params_->setCurrentIndex(int(b.init.kind));
    fillValue_->setText(QString::fromStdString(b.init.value));
    arangeStart_->setText(QString::fromStdString(b.init.start));
    arangeStep_->setText(QString::fromStdString(b.init.step));
    linStart_->setText(QString::fromStdString(b.init.start));
    linStop_->setText(QString::fromStdString(b.init.stop));
    low_->setText(num(b.init.low));
    high_->setText(num(b.init.high));
    uniSeed_->setText(QString::number(b.init.seed));
    mean_->setText(num(b.init.mean));
    stddev_->setText(num(b.init.stddev));
    normSeed_->setText(QString::number(b.init.seed));
    expr_->setText(QString::fromStdString(b.init.expression));
    file_->setText(QString::fromStdString(b.init.file));
    plot_->setChecked(b.plot);
    loading_ = false;
    refreshPreview();
}

BufferSpec BufferEditor::buffer() const
{
    BufferSpec b;
    b.name = name_.toStdString();
    b.count = count_->text().trimmed().toStdString();
    for (const QString& s : shape_->text().split(',', Qt::SkipEmptyParts))
        if (!s.trimmed().isEmpty())
            b.shape.push_back(s.trimmed().toStdString());
    b.dtype = DType(dtype_->currentData().toInt());
    b.direction = Direction(direction_->currentData().toInt());
    b.plot = plot_->isChecked();
    Initialiser& in = b.init;
    in.kind = Initialiser::Kind(kind_->currentIndex());
    in.value = fillValue_->text().toStdString();
    switch (in.kind) {
    case Initialiser::Kind::Arange:
        in.start = arangeStart_->text().toStdString();
        in.step = arangeStep_->text().toStdString();
        break;
    case Initialiser::Kind::Linspace:
        in.start = linStart_->text().toStdString();
        in.stop = linStop_->text().toStdString();
        break;
    case Initialiser::Kind::Normal: in.seed = normSeed_->text().toULongLong(); break;
    default: in.seed = uniSeed_->text().toULongLong(); break;
    }
    in.low = low_->text().toDouble();
    in.high = high_->text().toDouble();
    in.mean = mean_->text().toDouble();
    in.stddev = stddev_->text().toDouble();
    in.expression = expr_->text().toStdString();
    in.file = file_->text().toStdString();
    return b;
}

void BufferEditor::pickFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Initial data"), baseDir_,
                                                      tr("Arrays (*.npy *.csv *.bin);;All files (*)"));
    if (path.isEmpty())
        return;
    file_->setText(baseDir_.isEmpty() ? path : QDir(baseDir_).relativeFilePath(path));
    emitChanged();
}

} // namespace kw
