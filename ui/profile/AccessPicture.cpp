#include "profile/AccessPicture.hpp"

#include "ThemeColours.hpp"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHelpEvent>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPainterPath>
#include <QSvgGenerator>
#include <QToolTip>

#include <cmath>

namespace kw {

namespace {
// Four hues neighbouring sectors take in turn; lighter on dark paper.
QColor sectorHue(int i, bool dark)
{
    static const QRgb light[] = {0x1f77b4, 0xd96c00, 0x2a9d2a, 0x8c5fc0};
    static const QRgb night[] = {0x63aee8, 0xffa552, 0x62cc62, 0xbb98ea};
    return QColor((dark ? night : light)[i % 4]);
}

QColor good(const QPalette& p) { return ThemeColours::isDark(p) ? QColor(110, 200, 120) : QColor(46, 125, 50); }

bool fail(QString* error, const QString& why)
{
    if (error)
        *error = why;
    return false;
}

QString hex(std::uint64_t v) { return QStringLiteral("0x") + QString::number(v, 16); }
} // namespace

AccessPicture::AccessPicture(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setMouseTracking(true);
    setMessage(tr("No memory access recorded."));
}

void AccessPicture::setSample(const AccessSample& sample, const QString& title, const QString& subtitle)
{
    sample_ = sample;
    title_ = title;
    subtitle_ = subtitle;
    message_.clear();
    setMinimumHeight(heightForWidth(width()));
    updateGeometry();
    update();
}

void AccessPicture::setMessage(const QString& text)
{
    sample_.reset();
    title_.clear();
    subtitle_.clear();
    message_ = text;
    setMinimumHeight(heightForWidth(width()));
    updateGeometry();
    update();
}

AccessLayout AccessPicture::layout(qreal width) const
{
    const qreal w = width > 0 ? width : qreal(this->width());
    return AccessLayout::compute(sample_ ? *sample_ : AccessSample{}, title_, subtitle_, w, font());
}

int AccessPicture::heightForWidth(int w) const
{
    if (!sample_)
        return fontMetrics().height() * 4;
    return int(std::ceil(layout(std::max(w, 1)).height));
}

QSize AccessPicture::sizeHint() const { return {900, heightForWidth(900)}; }

QSize AccessPicture::minimumSizeHint() const
{
    if (!sample_)
        return {200, fontMetrics().height() * 4};
    const AccessLayout l = layout(1); // as narrow as the lanes allow
    return {int(std::ceil(l.width)), int(std::ceil(l.height))};
}

void AccessPicture::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (!sample_) {
        p.fillRect(rect(), palette().color(QPalette::Base));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(12, 8, -12, -8), Qt::AlignCenter | Qt::TextWordWrap, message_);
        return;
    }
    const AccessLayout l = layout();
    p.fillRect(rect(), palette().color(QPalette::Base));
    paint(p, l, palette());
}

void AccessPicture::paint(QPainter& p, const AccessLayout& L, const QPalette& pal)
{
    const bool dark = ThemeColours::isDark(pal);
    const bool shared = L.stats.isShared();
    const QColor text = pal.color(QPalette::Text);
    const QColor faint = pal.color(QPalette::PlaceholderText);
    auto colourOf = [&](int c) {
        return shared ? (c == 0 ? ThemeColours::value(pal) : ThemeColours::error(pal)) : sectorHue(c, dark);
    };
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    p.fillRect(QRectF(0, 0, L.width, L.height), pal.color(QPalette::Base));

    QFont titleFont = L.font;
    titleFont.setBold(true);
    p.setFont(titleFont);
    p.setPen(text);
    const int wrapFlag = L.wrapsTitle ? Qt::TextWordWrap : 0;
    p.drawText(L.title, Qt::AlignLeft | Qt::AlignTop | wrapFlag, L.titleText);
    p.setFont(L.font);
    p.drawText(L.subtitle, Qt::AlignLeft | Qt::AlignTop | wrapFlag, L.subtitleText);
    p.setPen(faint);
    p.drawText(L.lanesLabel, Qt::AlignRight | Qt::AlignVCenter, QObject::tr("lanes"));
    p.drawText(L.targetsLabel, Qt::AlignRight | Qt::AlignVCenter, L.targetsName);

    // Links under the boxes, each a curve leaving its lane downwards and arriving
    // from above, the way a hand draws them.
    for (const AccessLayout::Link& k : L.links) {
        QColor c = colourOf(L.targets[std::size_t(k.target)].colour);
        c.setAlpha(dark ? 190 : 170);
        p.setPen(QPen(c, 1.4));
        p.setBrush(Qt::NoBrush);
        QPainterPath path(k.from);
        const qreal mid = (k.from.y() + k.to.y()) / 2;
        path.cubicTo(QPointF(k.from.x(), mid), QPointF(k.to.x(), mid), k.to);
        p.drawPath(path);
    }

    const QFontMetricsF fm(L.font), fs(L.small);
    for (std::size_t i = 0; i < L.lanes.size(); ++i) {
        const AccessLayout::Lane& lane = L.lanes[i];
        QRectF top = lane.box, bottom = lane.box;
        top.setHeight(fm.height() + 4);
        bottom.setTop(top.bottom() - 2);
        if (lane.active) {
            const QColor c = colourOf(lane.colour);
            p.setPen(QPen(c, 1.2));
            p.setBrush(ThemeColours::tint(pal, c, dark ? 0.35 : 0.22));
            p.drawRoundedRect(lane.box, 3, 3);
            p.setPen(text);
        } else {
            p.setPen(QPen(faint, 1, Qt::DashLine));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(lane.box, 3, 3);
            p.setPen(faint);
        }
        p.setFont(L.font);
        p.drawText(top, Qt::AlignHCenter | Qt::AlignBottom, QString::number(i));
        if (L.showsLaneLabels && lane.active) {
            p.setFont(L.small);
            p.setPen(faint);
            p.drawText(bottom, Qt::AlignCenter, lane.label);
        }
    }

    p.setFont(L.small);
    for (const AccessLayout::Target& t : L.targets) {
        const QColor c = colourOf(t.colour);
        if (!shared) {
            p.setPen(QPen(c, 1.6));
            p.setBrush(ThemeColours::tint(pal, c, 0.10));
            p.drawRoundedRect(t.box, 3, 3);
            // Which of the sector's 4-byte words the lanes asked for.
            const qreal stripH = fs.height() * 0.9;
            const QRectF strip = t.box.adjusted(3, 3, -3, 0);
            const qreal partW = strip.width() / qreal(std::max<std::size_t>(1, t.usedParts.size()));
            for (std::size_t w = 0; w < t.usedParts.size(); ++w) {
                const QRectF cell(strip.left() + w * partW, strip.top(), partW, stripH);
                QColor fill = c;
                fill.setAlpha(t.usedParts[w] ? 200 : 0);
                p.setPen(QPen(ThemeColours::tint(pal, c, 0.45), 0.8));
                p.setBrush(fill);
                p.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5));
            }
            const QRectF labelBox(t.box.left(), strip.top() + stripH, t.box.width(),
                                  t.box.bottom() - strip.top() - stripH);
            if (fs.horizontalAdvance(t.label) + 4 <= t.box.width()) {
                p.setPen(text);
                p.drawText(labelBox, Qt::AlignCenter, t.label);
            }
        } else {
            p.setPen(QPen(t.readers > 1 ? good(pal) : c, t.readers > 1 ? 2.0 : 1.0));
            p.setBrush(ThemeColours::tint(pal, c, dark ? 0.45 : 0.30));
            p.drawRect(t.box);
            if (!t.label.isEmpty()) {
                p.setPen(text);
                p.drawText(t.box, Qt::AlignCenter, t.label);
            }
        }
    }
    p.setPen(faint);
    for (const AccessLayout::Gap& g : L.gaps)
        if (fs.horizontalAdvance(QStringLiteral("…")) <= g.box.width())
            p.drawText(g.box, Qt::AlignCenter, QStringLiteral("…"));
    for (std::size_t b = 0; b < L.bankNumbers.size(); ++b)
        p.drawText(L.bankNumbers[b], Qt::AlignCenter, QString::number(b));
    QFont boldSmall = L.small;
    boldSmall.setBold(true);
    p.setFont(boldSmall);
    p.setPen(ThemeColours::error(pal));
    for (std::size_t k = 0; k < L.conflictMarks.size(); ++k)
        p.drawText(L.conflictMarks[k], Qt::AlignCenter, QStringLiteral("×%1").arg(L.conflictDepth[k]));

    const bool wasteful
        = shared ? L.stats.wavefronts > L.stats.idealWavefronts : int(L.stats.sectors.size()) > L.stats.idealSectors;
    p.setFont(L.bold);
    p.setPen(L.stats.activeLanes == 0 ? faint : wasteful ? ThemeColours::error(pal) : good(pal));
    p.drawText(L.headline, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, L.stats.headline());
    p.setFont(L.font);
    p.setPen(text);
    p.drawText(L.detail, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, L.stats.detail());
    p.restore();
}

bool AccessPicture::exportTo(const QString& path, QString* error) const
{
    if (!sample_)
        return fail(error, tr("There is no memory access to export."));
    // Pixel sizes: the layout measures and the SVG draws text alike, whatever the DPI.
    QFont f = font();
    f.setPixelSize(std::max(15, QFontInfo(font()).pixelSize()));
    const AccessLayout l = AccessLayout::compute(*sample_, title_, subtitle_, ExportWidth, f, true);
    const QSize size(int(std::ceil(l.width)), int(std::ceil(l.height)));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) {
        QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(2.0);
        image.fill(palette().color(QPalette::Base));
        QPainter p(&image);
        paint(p, l, palette());
        p.end();
        return image.save(path, "PNG") ? true : fail(error, tr("Could not write %1.").arg(path));
    }
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setResolution(96); // CSS pixels: browsers and slide tools show it at its layout size
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title_);
        svg.setDescription(l.stats.headline());
        QPainter p;
        if (!p.begin(&svg))
            return fail(error, tr("Could not write %1.").arg(path));
        paint(p, l, palette());
        p.end();
        return QFileInfo(path).size() > 0 ? true : fail(error, tr("Could not write %1.").arg(path));
    }
    return fail(error, tr("Unknown picture format \"%1\": use .png or .svg.").arg(suffix));
}

void AccessPicture::exportInteractive()
{
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Export memory access picture"), QStringLiteral("memory-access.png"),
                                       tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error))
        QMessageBox::warning(this, tr("Export memory access picture"), error);
}

void AccessPicture::contextMenuEvent(QContextMenuEvent* e)
{
    QMenu menu(this);
    QAction* save = menu.addAction(tr("Export picture (PNG or SVG)…"), this, &AccessPicture::exportInteractive);
    save->setEnabled(sample_.has_value());
    menu.exec(e->globalPos());
}

bool AccessPicture::event(QEvent* e)
{
    // The picture's height follows its width and font: a scroll area around it then
    // scrolls instead of squeezing it.
    if (e->type() == QEvent::Resize || e->type() == QEvent::FontChange) {
        const bool handled = QWidget::event(e);
        setMinimumHeight(heightForWidth(width()));
        return handled;
    }
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString tip = tooltipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(e);
}

QString AccessPicture::tooltipAt(const QPointF& pos) const
{
    if (!sample_)
        return {};
    const AccessLayout l = layout();
    if (const int i = l.laneAt(pos); i >= 0) {
        const LaneAccess& a = sample_->lanes[i];
        if (!a.active)
            return tr("Lane %1: inactive").arg(i);
        return tr("Lane %1: %2 bytes at %3").arg(i).arg(a.bytes).arg(hex(a.address));
    }
    if (const int k = l.targetAt(pos); k >= 0) {
        const AccessLayout::Target& t = l.targets[std::size_t(k)];
        if (!l.stats.isShared()) {
            int used = 0;
            for (bool u : t.usedParts)
                used += u ? 4 : 0;
            return tr("Sector at %1: %2 of its 32 bytes asked for, by %3")
                .arg(hex(t.index * AccessStats::SectorBytes))
                .arg(used)
                .arg(t.readers == 1 ? tr("1 lane") : tr("%1 lanes").arg(t.readers));
        }
        QString tip = tr("Bank %1, word %2 (offset %3): %4")
                          .arg(t.bank)
                          .arg(t.index)
                          .arg(t.index * AccessStats::BankBytes)
                          .arg(t.readers == 1 ? tr("1 lane") : tr("%1 lanes").arg(t.readers));
        if (t.readers > 1)
            tip += tr(", one read shared by all (broadcast)");
        if (t.conflict)
            tip += tr("; another word of this bank is asked for in the same wavefront: a bank conflict");
        return tip;
    }
    return {};
}

} // namespace kw
