#include "debugger/CallStackView.hpp"

#include <QListWidget>
#include <QVBoxLayout>

namespace kw {

CallStackView::CallStackView(QWidget* parent)
    : QWidget(parent)
{
    list_ = new QListWidget;
    list_->setToolTip(tr("Device functions NVRTC inlined are frames here; one it inlined itself is "
                         "reported at its outermost call"));
    connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        if (const int line = item->data(Qt::UserRole).toInt(); line > 0)
            emit lineChosen(line);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(list_);
}

void CallStackView::show(const DebugReply& reply)
{
    list_->clear();
    for (std::size_t i = 0; i < reply.frames.size(); ++i) {
        const DebugFrame& f = reply.frames[i];
        const QString at = f.where.line > 0 ? QString("%1:%2").arg(f.where.file).arg(f.where.line) : tr("no line");
        auto* item = new QListWidgetItem(i == 0 ? tr("#%1 %2 at %3").arg(i).arg(f.function, at)
                                                : tr("#%1 %2 called at %3").arg(i).arg(f.function, at));
        item->setData(Qt::UserRole, f.where.line);
        list_->addItem(item);
    }
}

} // namespace kw
