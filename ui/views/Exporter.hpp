#pragma once
// Saving what the output views show: plots as PNG, SVG or PDF; buffers as .npy or .csv
// through the core's file writers. The format follows the file name's suffix.
#include <QString>

#include <cstddef>
#include <vector>

class QCustomPlot;
class QWidget;

namespace kw {

class HostBuffer;

class Exporter {
public:
    // width/height 0: the plot's current size. Returns false and sets *error on failure.
    static bool savePlot(QCustomPlot* plot, const QString& path, QString* error = nullptr, int width = 0,
                         int height = 0);
    static bool saveBuffer(const HostBuffer& data, const std::vector<std::size_t>& shape, const QString& path,
                           QString* error = nullptr);

    // Ask for a file name, save, and report failures in a message box.
    static void savePlotInteractive(QWidget* parent, QCustomPlot* plot, const QString& suggestedName);
    static void saveBufferInteractive(QWidget* parent, const HostBuffer& data, const std::vector<std::size_t>& shape,
                                      const QString& suggestedName);
};

} // namespace kw
