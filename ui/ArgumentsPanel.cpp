#include "ArgumentsPanel.hpp"

#include "BufferEditor.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace kw {

namespace {
// Where a document's nameless argument is remembered: no parameter's name has a '#'.
std::string positionKey(std::size_t i) { return std::string(1, '#').append(std::to_string(i)); }
constexpr int kNullPointer = -1; // the direction box's entry for a null pointer
constexpr DType allDTypes[] = {DType::I8,  DType::U8,  DType::I16, DType::U16,  DType::I32, DType::U32,
                               DType::I64, DType::U64, DType::F16, DType::BF16, DType::F32, DType::F64};
enum Column { ColName, ColCType, ColDType, ColSetting, ColCount, ColumnCount };

QComboBox* dtypeCombo(DType current, QWidget* parent)
{
    auto* c = new QComboBox(parent);
    for (DType t : allDTypes)
        c->addItem(toString(t), int(t));
    c->setCurrentIndex(c->findData(int(current)));
    return c;
}
} // namespace

void ArgumentsPanel::setModuleGlobals(const std::vector<ModuleGlobal>& globals)
{
    QStringList lines;
    for (const ModuleGlobal& g : globals)
        lines << QString("%1 %2 %3%4 (line %5)")
                     .arg(QString::fromStdString(g.space), QString::fromStdString(g.type),
                          QString::fromStdString(g.name), QString::fromStdString(g.dims))
                     .arg(g.line);
    globals_->setText(lines.isEmpty()
                          ? QString()
                          : tr("Module globals (the document's \"globals\" fill them):") + "\n  " + lines.join("\n  "));
    globals_->setVisible(!lines.isEmpty());
}

QString ArgumentsPanel::moduleGlobalsText() const { return globals_->text(); }

ArgumentsPanel::ArgumentsPanel(QWidget* parent)
    : QWidget(parent)
{
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setHorizontalHeaderLabels(
        {tr("Parameter"), tr("C type"), tr("dtype"), tr("Direction / value"), tr("Count")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The last column takes the room left (a stretched last section would keep a default
    // width even where there is none, and scroll the table sideways); fitColumns makes
    // sure that room holds its text.
    table_->horizontalHeader()->setSectionResizeMode(ColCount, QHeaderView::Stretch);
    // Asks for the width of its columns, so the window's layout can give it that.
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    editor_ = new BufferEditor(this);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(table_);
    // Scrolls rather than claiming its full height from the dock column.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(editor_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    editorScroll_ = scroll;
    editorScroll_->hide();
    split->addWidget(editorScroll_);
    // The table first: every argument row in view, the selected buffer's details below.
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    // Room for a typical kernel's parameters without scrolling.
    table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height()
                             + 4 * table_->verticalHeader()->defaultSectionSize() + 4);
    setup_ = new QPushButton(tr("Set up from the signature…"), this);
    setup_->setObjectName("setupFromSignature");
    setup_->setToolTip(tr("Propose buffers, sizes and a launch from the kernel's parameters, to look at before "
                          "taking"));
    connect(setup_, &QPushButton::clicked, this, &ArgumentsPanel::setupRequested);
    auto* actions = new QHBoxLayout;
    actions->setContentsMargins(0, 0, 0, 0);
    actions->addWidget(setup_);
    actions->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(actions);
    layout->addWidget(split);
    globals_ = new QLabel(this);
    globals_->setWordWrap(true);
    globals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    globals_->hide();
    layout->addWidget(globals_);

    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) { selectRow(row); });
    connect(editor_, &BufferEditor::changed, this, [this] {
        if (selected_ < 0 || selected_ >= int(rows_.size()) || !rows_[selected_].isBuffer)
            return;
        rows_[selected_].buffer = editor_->buffer();
        // Keep the table's summary in step with the editor.
        QSignalBlocker b(table_);
        const BufferSpec& spec = rows_[selected_].buffer;
        if (auto* c = qobject_cast<QComboBox*>(table_->cellWidget(selected_, ColDType)))
            c->setCurrentIndex(c->findData(int(spec.dtype)));
        if (auto* c = qobject_cast<QComboBox*>(table_->cellWidget(selected_, ColSetting)))
            c->setCurrentIndex(c->findData(int(spec.direction)));
        if (auto* item = table_->item(selected_, ColCount))
            item->setText(QString::fromStdString(spec.count));
        emit changed();
    });
}

void ArgumentsPanel::load(const std::vector<BufferSpec>& buffers, const std::vector<ArgSpec>& args)
{
    remembered_.clear();
    rows_.clear();
    for (std::size_t i = 0; i < args.size(); ++i) {
        const ArgSpec& a = args[i];
        Row r;
        r.param.name = a.name;
        if (a.null) {
            r.isBuffer = r.null = true;
            r.arg = a;
        } else if (a.isBuffer()) {
            r.isBuffer = true;
            r.arg = a;
            for (const BufferSpec& b : buffers)
                if (b.name == a.buffer)
                    r.buffer = b;
            if (r.buffer.name.empty())
                r.buffer.name = a.buffer;
        } else {
            r.arg = a;
        }
        // A document may leave an argument's name out (the order decides): such a one is
        // found by its place when the signature comes.
        remembered_[a.name.empty() ? positionKey(i) : a.name] = r;
    }
}

ArgumentsPanel::Row ArgumentsPanel::defaultRow(const KernelParam& p) const
{
    Row r;
    r.param = p;
    r.isBuffer = p.isPointer;
    const DType t = dtypeForCType(p.baseType).value_or(p.isPointer ? DType::F32 : DType::I32);
    if (p.isPointer) {
        r.buffer.name = p.name;
        r.buffer.dtype = t;
        r.buffer.count = variables_.contains("n") ? "n" : "1024";
        r.buffer.direction = p.isConst ? Direction::In : Direction::InOut;
        r.arg.name = p.name;
        r.arg.buffer = p.name;
    } else {
        r.arg.name = p.name;
        r.arg.type = t;
        r.defaulted = !variables_.contains(QString::fromStdString(p.name));
        r.arg.value = r.defaulted ? "0" : p.name;
    }
    return r;
}

void ArgumentsPanel::setVariableNames(const QStringList& names)
{
    variables_ = names;
    bool picked = false;
    for (Row& r : rows_)
        if (r.defaulted && names.contains(QString::fromStdString(r.param.name))) {
            r.arg.value = r.param.name;
            r.defaulted = false;
            picked = true;
        }
    if (!picked)
        return;
    rebuildTable();
    // After the edit of the variables that brought the name, as an edit of its own.
    QMetaObject::invokeMethod(this, &ArgumentsPanel::changed, Qt::QueuedConnection);
}

QString ArgumentsPanel::noteOf(int row) const
{
    const QTableWidgetItem* item = table_->item(row, ColCount);
    return item && row >= 0 && row < int(rows_.size()) && !rows_[row].isBuffer ? item->text() : QString();
}

void ArgumentsPanel::setSignature(const KernelSignature& signature)
{
    for (const Row& r : rows_)
        if (!r.param.name.empty())
            remembered_[r.param.name] = r;
    std::vector<Row> next;
    for (std::size_t i = 0; i < signature.params.size(); ++i) {
        KernelParam p = signature.params[i];
        if (p.name.empty())
            p.name = "arg" + std::to_string(i);
        auto it = remembered_.find(p.name);
        if (it == remembered_.end())
            it = remembered_.find(positionKey(i));
        if (it != remembered_.end() && it->second.isBuffer == p.isPointer) {
            Row r = it->second;
            r.param = p;
            if (r.null) {
                r.arg.name = p.name;
                if (r.buffer.name.empty())
                    r.buffer = defaultRow(p).buffer; // for when it gets a buffer again
            } else if (r.isBuffer) {
                r.arg.name = p.name;
                r.arg.buffer = r.buffer.name.empty() ? p.name : r.buffer.name;
                r.buffer.name = r.arg.buffer;
            } else {
                r.arg.name = p.name;
            }
            next.push_back(r);
        } else {
            next.push_back(defaultRow(p));
        }
    }
    rows_ = std::move(next);
    // Places hold for the document as loaded only: once a kernel's parameters have named
    // its rows, a place may be another parameter's after an edit.
    if (!signature.params.empty())
        std::erase_if(remembered_, [](const auto& entry) { return entry.first.front() == '#'; });
    rebuildTable();
    emit changed();
}

void ArgumentsPanel::rebuildTable()
{
    rebuilding_ = true;
    const int keep = selected_;
    table_->setRowCount(int(rows_.size()));
    for (int i = 0; i < int(rows_.size()); ++i) {
        const Row& r = rows_[i];
        auto* name = new QTableWidgetItem(QString::fromStdString(r.param.name));
        if (r.isBuffer && !r.arg.offset.empty()) { // `d_in + RADIUS`: say so where the parameter is
            name->setText(QString::fromStdString(r.param.name + " = " + r.arg.buffer + " + " + r.arg.offset));
            name->setToolTip(tr("The kernel gets the address of element %1 of buffer %2 (\"offset\" in the document)")
                                 .arg(QString::fromStdString(r.arg.offset), QString::fromStdString(r.arg.buffer)));
        }
        table_->setItem(i, ColName, name);
        table_->setItem(i, ColCType, new QTableWidgetItem(QString::fromStdString(r.param.type)));
        auto* dt = dtypeCombo(r.isBuffer ? r.buffer.dtype : r.arg.type, table_);
        dt->setEnabled(!r.null);
        table_->setCellWidget(i, ColDType, dt);
        connect(dt, &QComboBox::currentIndexChanged, this, [this, i] { rowEdited(i); });
        if (r.isBuffer) {
            auto* dir = new QComboBox(table_);
            dir->addItem("in", int(Direction::In));
            dir->addItem("out", int(Direction::Out));
            dir->addItem("inout", int(Direction::InOut));
            dir->addItem(tr("null"), kNullPointer);
            dir->setItemData(dir->count() - 1, tr("No buffer: the kernel gets a null pointer"), Qt::ToolTipRole);
            dir->setCurrentIndex(dir->findData(r.null ? kNullPointer : int(r.buffer.direction)));
            table_->setCellWidget(i, ColSetting, dir);
            connect(dir, &QComboBox::currentIndexChanged, this, [this, i] { rowEdited(i); });
            auto* count = new QTableWidgetItem(r.null ? QString() : QString::fromStdString(r.buffer.count));
            if (r.null)
                count->setFlags(count->flags() & ~Qt::ItemIsEditable);
            table_->setItem(i, ColCount, count);
        } else {
            auto* value = new QLineEdit(QString::fromStdString(r.arg.value), table_);
            value->setFrame(false);
            table_->setCellWidget(i, ColSetting, value);
            connect(value, &QLineEdit::textEdited, this, [this, i] { rowEdited(i); });
            auto* note = new QTableWidgetItem(
                r.defaulted ? tr("0 by default: no variable named %1").arg(QString::fromStdString(r.param.name))
                            : QString());
            note->setToolTip(note->text().isEmpty() ? QString() : tr("Type a value, or add a variable of that name"));
            table_->setItem(i, ColCount, note);
        }
    }
    rebuilding_ = false;
    fitColumns();
    const int sel = keep >= 0 && keep < int(rows_.size()) ? keep : (rows_.empty() ? -1 : 0);
    selected_ = -1;
    if (sel >= 0)
        table_->setCurrentCell(sel, ColName);
    selectRow(sel);
}

void ArgumentsPanel::fitColumns()
{
    // The table is at least as wide as its columns whole, with room for its vertical scroll
    // bar: the window's layout then gives the right column that much rather than scrolling
    // sideways. (Its size hint alone would not do: it counts the stretched last column as
    // wide as it happens to be.)
    const QAbstractItemView* view = table_;
    int width = 2 * table_->frameWidth() + table_->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    for (int c = 0; c < table_->columnCount(); ++c)
        width += std::max(table_->horizontalHeader()->sectionSizeHint(c), view->sizeHintForColumn(c));
    table_->setMinimumWidth(width);
}

void ArgumentsPanel::rowEdited(int i)
{
    if (rebuilding_ || i >= int(rows_.size()))
        return;
    Row& r = rows_[i];
    const DType t = DType(qobject_cast<QComboBox*>(table_->cellWidget(i, ColDType))->currentData().toInt());
    if (r.isBuffer) {
        const int direction = qobject_cast<QComboBox*>(table_->cellWidget(i, ColSetting))->currentData().toInt();
        if ((direction == kNullPointer) != r.null) { // to or from a null pointer: the row changes its cells
            r.null = direction == kNullPointer;
            r.arg = r.null ? ArgSpec::nullPointer(r.param.name)
                           : ArgSpec{r.param.name, r.buffer.name, DType::I32, "", ""};
            if (!r.null)
                r.buffer.direction = Direction(direction);
            QTimer::singleShot(0, this, [this] { // not while the combo box is still signalling
                const int keep = selected_;
                selected_ = -1;
                rebuildTable();
                selectRow(keep);
            });
            emit changed();
            return;
        }
        r.buffer.dtype = t;
        if (!r.null)
            r.buffer.direction = Direction(direction);
        if (i == selected_)
            editor_->setBuffer(r.buffer);
    } else {
        r.arg.type = t;
        const std::string value
            = qobject_cast<QLineEdit*>(table_->cellWidget(i, ColSetting))->text().trimmed().toStdString();
        if (value != r.arg.value && r.defaulted) { // the user's value now, not a default
            r.defaulted = false;
            table_->item(i, ColCount)->setText(QString());
        }
        r.arg.value = value;
    }
    emit changed();
}

void ArgumentsPanel::selectRow(int row)
{
    // -1 is always applied: a kernel without parameters must hide the editor.
    if (rebuilding_ || (row == selected_ && row >= 0))
        return;
    selected_ = row;
    const bool isBuffer = row >= 0 && row < int(rows_.size()) && rows_[row].isBuffer && !rows_[row].null;
    editorScroll_->setVisible(isBuffer);
    if (isBuffer) {
        editor_->setBuffer(rows_[row].buffer);
    } else {
        editor_->setEnabled(false);
        editor_->refreshPreview();
    }
}

bool ArgumentsPanel::bufferEditorShown() const { return !editorScroll_->isHidden(); }

std::vector<BufferSpec> ArgumentsPanel::buffers() const
{
    std::vector<BufferSpec> out;
    for (const Row& r : rows_)
        if (r.isBuffer && !r.null)
            out.push_back(r.buffer);
    return out;
}

std::vector<ArgSpec> ArgumentsPanel::args() const
{
    std::vector<ArgSpec> out;
    for (const Row& r : rows_)
        out.push_back(r.arg);
    return out;
}

} // namespace kw
