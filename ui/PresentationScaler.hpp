#pragma once
// Enlarges all text under a widget for presentation mode and puts it back: the
// application font, widgets with fonts of their own (printf, tables, PTX), and the
// plots' ticks, labels and legends, which follow no widget font.
#include <QFont>
#include <QHash>
#include <QPointer>

#include <vector>

class QCustomPlot;
class QWidget;

namespace kw {

class PresentationScaler {
public:
    explicit PresentationScaler(double factor)
        : factor_(factor)
    {
    }
    // Scales root's tree; calling it again first restores.
    void enlarge(QWidget* root);
    void restore();
    bool active() const { return active_; }
    double factor() const { return factor_; }

private:
    struct PlotFonts {
        QPointer<QCustomPlot> plot;
        std::vector<std::pair<QFont, QFont>> axes; // tick label, label, per axis in order
        QFont legend;
    };
    double factor_;
    bool active_ = false;
    QFont appFont_;
    std::vector<std::pair<QPointer<QWidget>, QFont>> widgets_;
    std::vector<PlotFonts> plots_;
};

} // namespace kw
