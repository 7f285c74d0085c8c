#include "views/Exporter.hpp"

#include "data/CsvFile.hpp"
#include "data/HostBuffer.hpp"
#include "data/NpyFile.hpp"

#include <qcustomplot.h>

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSvgGenerator>

#include <exception>

namespace kw {

namespace {
bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}
} // namespace

bool Exporter::savePlot(QCustomPlot* plot, const QString& path, QString* error, int width, int height)
{
    if (!plot)
        return fail(error, QObject::tr("No plot to save."));
    const QString suffix = QFileInfo(path).suffix().toLower();
    const int w = width > 0 ? width : plot->width();
    const int h = height > 0 ? height : plot->height();
    bool ok = false;
    if (suffix == QLatin1String("png")) {
        ok = plot->savePng(path, w, h, 2.0);
    } else if (suffix == QLatin1String("pdf")) {
        ok = plot->savePdf(path, w, h);
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(QSize(w, h));
        svg.setViewBox(QRect(0, 0, w, h));
        svg.setTitle(plot->windowTitle());
        QCPPainter painter;
        if (painter.begin(&svg)) {
            plot->toPainter(&painter, w, h);
            ok = painter.end();
        }
    } else {
        return fail(error, QObject::tr("Unknown plot format \"%1\": use .png, .svg or .pdf.").arg(suffix));
    }
    return ok ? true : fail(error, QObject::tr("Could not write %1.").arg(path));
}

bool Exporter::saveBuffer(const HostBuffer& data, const std::vector<std::size_t>& shape, const QString& path,
                          QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const std::filesystem::path file(path.toStdWString());
    try {
        if (suffix == QLatin1String("npy"))
            NpyFile::write(file, data, shape);
        else if (suffix == QLatin1String("csv"))
            CsvFile::write(file, data, shape);
        else
            return fail(error, QObject::tr("Unknown buffer format \"%1\": use .npy or .csv.").arg(suffix));
    } catch (const std::exception& e) {
        return fail(error, QString::fromStdString(e.what()));
    }
    return true;
}

void Exporter::savePlotInteractive(QWidget* parent, QCustomPlot* plot, const QString& suggestedName)
{
    const QString path
        = QFileDialog::getSaveFileName(parent, QObject::tr("Export plot"), suggestedName + QStringLiteral(".png"),
                                       QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!savePlot(plot, path, &error))
        QMessageBox::warning(parent, QObject::tr("Export plot"), error);
}

void Exporter::saveBufferInteractive(QWidget* parent, const HostBuffer& data, const std::vector<std::size_t>& shape,
                                     const QString& suggestedName)
{
    const QString path
        = QFileDialog::getSaveFileName(parent, QObject::tr("Export buffer"), suggestedName + QStringLiteral(".npy"),
                                       QObject::tr("NumPy array (*.npy);;Comma-separated values (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveBuffer(data, shape, path, &error))
        QMessageBox::warning(parent, QObject::tr("Export buffer"), error);
}

} // namespace kw
