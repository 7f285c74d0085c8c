#pragma once
// The key to the margin's colours: the counter's steps from cold to hot, with the
// value the hottest one stands for.
#include <QWidget>

#include <cstdint>

namespace kw {

class HeatLegend : public QWidget {
    Q_OBJECT
public:
    explicit HeatLegend(QWidget* parent = nullptr);

    void setMaximum(std::uint64_t maximum);
    std::uint64_t maximum() const { return maximum_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QString lowText() const;
    QString highText() const;
    std::uint64_t maximum_ = 0;
};

} // namespace kw
