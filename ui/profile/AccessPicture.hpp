#pragma once
// One warp's memory access as teachers draw it by hand: the 32 lanes in a row, lines
// down to the 32-byte sectors they touch (global, local) or to the 32 banks with each
// bank's distinct words stacked (shared), and what it comes to written underneath.
// Follows the palette; exports to PNG and SVG for slides (right-click, or exportTo).
#include "launch/KernelProfile.hpp"
#include "profile/AccessLayout.hpp"

#include <QWidget>

#include <optional>

namespace kw {

class AccessPicture : public QWidget {
    Q_OBJECT
public:
    // Exported pictures are laid out this wide (logical pixels), whatever the window.
    static constexpr int ExportWidth = 1400;

    explicit AccessPicture(QWidget* parent = nullptr);

    // title: what and where (the line and its source); subtitle: the instruction and warp.
    void setSample(const AccessSample& sample, const QString& title, const QString& subtitle = {});
    // No sample: the text says why (nothing recorded yet, another line chosen).
    void setMessage(const QString& text);
    bool hasSample() const { return sample_.has_value(); }
    const QString& message() const { return message_; }

    // The layout at the given width (the widget's own when 0).
    AccessLayout layout(qreal width = 0) const;
    // PNG (twice the logical size, for sharp slides) or SVG, by the file's suffix.
    bool exportTo(const QString& path, QString* error = nullptr) const;
    void exportInteractive();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override;

    // Draws the layout with the palette's colours; the widget, the PNG and the SVG all use it.
    static void paint(QPainter& p, const AccessLayout& layout, const QPalette& palette);

protected:
    void paintEvent(QPaintEvent*) override;
    void contextMenuEvent(QContextMenuEvent* e) override;
    bool event(QEvent* e) override;

private:
    QString tooltipAt(const QPointF& p) const;

    std::optional<AccessSample> sample_;
    QString title_, subtitle_;
    QString message_;
};

} // namespace kw
