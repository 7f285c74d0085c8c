#include "debugger/SharedMemoryView.hpp"

#include "debugger/CompactTable.hpp"
#include <QComboBox>
#include <QHBoxLayout>

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kw {

QColor SharedMemoryView::bankColour(std::uint32_t bank)
{
    // Neighbouring banks get far-apart hues, so a conflict (one colour twice in a
    // warp's accesses) stands out; light enough for dark text.
    return QColor::fromHsv(int((bank * 7) % 32) * 360 / 32, 60, 250);
}

SharedMemoryView::SharedMemoryView(QWidget* parent)
    : QWidget(parent)
{
    type_ = new QComboBox;
    type_->addItems({"f32", "i32", "u32", "f64"});
    type_->setToolTip(tr("How the words are read"));
    connect(type_, &QComboBox::currentTextChanged, this, &SharedMemoryView::typeChanged);
    summary_ = new QLabel;
    table_ = new CompactTable(0, kColumns);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(40);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Type")));
    top->addWidget(type_);
    top->addWidget(summary_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addWidget(table_);
}

QString SharedMemoryView::type() const { return type_->currentText(); }

QString SharedMemoryView::textAt(std::uint32_t offset) const
{
    for (const DebugSharedWord& w : words_)
        if (w.offset == offset)
            return w.text;
    return {};
}

void SharedMemoryView::show(const DebugReply& reply)
{
    words_ = reply.shared;
    const QString type = reply.sharedType.value_or(type_->currentText());
    const int size = type == "f64" ? 8 : 4;
    summary_->setText(tr("block %1: %2 bytes, colour = bank").arg(reply.focusBlock).arg(reply.sharedBytes));
    const int rows = (int(words_.size()) + kColumns - 1) / kColumns;
    table_->setRowCount(rows);
    QStringList columnHeaders, rowHeaders;
    for (int c = 0; c < kColumns; ++c)
        columnHeaders << QString("+%1").arg(c * size);
    for (int r = 0; r < rows; ++r)
        rowHeaders << QString::number(r * kColumns * size);
    table_->setHorizontalHeaderLabels(columnHeaders);
    table_->setVerticalHeaderLabels(rowHeaders);
    for (std::size_t i = 0; i < words_.size(); ++i) {
        const DebugSharedWord& w = words_[i];
        auto* item = new QTableWidgetItem(w.text);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        item->setBackground(bankColour(w.bank));
        item->setForeground(QColor("#202020"));
        item->setToolTip(tr("byte %1, bank %2").arg(w.offset).arg(w.bank));
        table_->setItem(int(i) / kColumns, int(i) % kColumns, item);
    }
}

} // namespace kw
