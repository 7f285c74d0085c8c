#include "views/BufferTableView.hpp"

#include "views/BufferTableModel.hpp"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace kw {

BufferTableView::BufferTableView(QWidget* parent)
    : QWidget(parent)
    , model_(new BufferTableModel(this))
    , table_(new QTableView(this))
    , page_(new QSpinBox(this))
    , pages_(new QLabel(this))
    , jump_(new QLineEdit(this))
{
    table_->setModel(model_);
    table_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Fixed section sizes keep the headers O(1) however many rows a page has.
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->horizontalHeader()->setDefaultSectionSize(96);
    table_->setAlternatingRowColors(true);

    jump_->setPlaceholderText(tr("go to element index"));
    jump_->setClearButtonEnabled(true);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Page:"), this));
    top->addWidget(page_);
    top->addWidget(pages_);
    top->addStretch();
    top->addWidget(jump_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(table_, 1);

    connect(page_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int p) {
        model_->setPage(std::size_t(p - 1));
        updatePageControls();
    });
    connect(jump_, &QLineEdit::returnPressed, this, [this] {
        bool ok = false;
        const qulonglong i = jump_->text().trimmed().toULongLong(&ok);
        const bool valid = ok && model_->buffer() && i < model_->totalRows() * model_->totalColumns();
        jump_->setStyleSheet(valid ? QString() : QStringLiteral("color: #c62828;"));
        if (valid)
            showElement(std::size_t(i));
    });
    updatePageControls();
}

void BufferTableView::setBuffer(std::shared_ptr<const HostBuffer> buffer, std::vector<std::size_t> shape)
{
    model_->setBuffer(std::move(buffer), std::move(shape));
    updatePageControls();
}

void BufferTableView::showElement(std::size_t index)
{
    const auto loc = model_->locate(index);
    model_->setPage(loc.page);
    updatePageControls();
    const QModelIndex mi = model_->index(loc.row, loc.column);
    table_->setCurrentIndex(mi);
    table_->scrollTo(mi, QAbstractItemView::PositionAtCenter);
}

void BufferTableView::updatePageControls()
{
    const int count = int(std::max<std::size_t>(1, model_->pageCount()));
    const QSignalBlocker block(page_);
    page_->setRange(1, count);
    page_->setValue(int(model_->page()) + 1);
    page_->setEnabled(count > 1);
    pages_->setText(tr("of %1 (%2 rows x %3 columns)").arg(count).arg(model_->totalRows()).arg(model_->totalColumns()));
}

} // namespace kw
