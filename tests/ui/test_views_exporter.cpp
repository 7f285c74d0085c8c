#include "data/CsvFile.hpp"
#include "data/HostBuffer.hpp"
#include "data/NpyFile.hpp"
#include "views/Exporter.hpp"
#include "views/LinePlot.hpp"
#include "views_test_app.hpp"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include <cmath>

using namespace kw;

namespace {
QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

struct PlotFixture : ::testing::Test {
    // The application must exist before the plot member is constructed.
    struct App {
        App() { test::app(); }
    } app;

    void SetUp() override
    {
        ASSERT_TRUE(dir.isValid());
        data = std::make_shared<HostBuffer>(DType::F32, 5000);
        for (std::size_t i = 0; i < data->count(); ++i)
            data->set(i, std::sin(double(i) * 0.01));
        plot.resize(640, 360);
        plot.show();
        QApplication::processEvents();
        plot.setBuffer(data, "sin");
    }
    QTemporaryDir dir;
    std::shared_ptr<HostBuffer> data;
    LinePlot plot;
};
} // namespace

TEST_F(PlotFixture, WritesAPngOfThePlot)
{
    const QString path = dir.filePath("plot.png");
    QString error;
    ASSERT_TRUE(Exporter::savePlot(plot.plot(), path, &error, 640, 360)) << error.toStdString();
    EXPECT_TRUE(readAll(path).startsWith("\x89PNG\r\n\x1a\n"));
    const QImage image(path);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.width(), 1280); // saved at twice the size for sharp text
    EXPECT_EQ(image.height(), 720);
    // Not blank: the line and axes put dark pixels on the white background.
    int dark = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4)
            dark += qGray(image.pixel(x, y)) < 128 ? 1 : 0;
    EXPECT_GT(dark, 100);
}

TEST_F(PlotFixture, WritesAnSvgThatRenders)
{
    const QString path = dir.filePath("plot.svg");
    QString error;
    ASSERT_TRUE(Exporter::savePlot(plot.plot(), path, &error)) << error.toStdString();
    const QByteArray svg = readAll(path);
    EXPECT_TRUE(svg.contains("<svg"));
    EXPECT_TRUE(svg.contains("<path") || svg.contains("<polyline"));
    QSvgRenderer renderer(path);
    EXPECT_TRUE(renderer.isValid());
}

TEST_F(PlotFixture, WritesAPdf)
{
    const QString path = dir.filePath("plot.pdf");
    QString error;
    ASSERT_TRUE(Exporter::savePlot(plot.plot(), path, &error)) << error.toStdString();
    const QByteArray pdf = readAll(path);
    EXPECT_TRUE(pdf.startsWith("%PDF-"));
    EXPECT_TRUE(pdf.trimmed().endsWith("%%EOF"));
}

TEST_F(PlotFixture, RefusesAnUnknownFormat)
{
    QString error;
    EXPECT_FALSE(Exporter::savePlot(plot.plot(), dir.filePath("plot.bmpx"), &error));
    EXPECT_TRUE(error.contains("bmpx"));
}

TEST(Exporter, WritesBuffersAsNpyAndCsv)
{
    test::app();
    QTemporaryDir dir;
    HostBuffer b(DType::F32, 6);
    for (std::size_t i = 0; i < 6; ++i)
        b.set(i, double(i) * 0.5);
    const QString npy = dir.filePath("b.npy");
    QString error;
    ASSERT_TRUE(Exporter::saveBuffer(b, {2, 3}, npy, &error)) << error.toStdString();
    EXPECT_TRUE(readAll(npy).startsWith("\x93NUMPY"));
    const NdArray back = NpyFile::read(npy.toStdString());
    EXPECT_EQ(back.shape, (std::vector<std::size_t>{2, 3}));
    ASSERT_EQ(back.data.count(), 6u);
    for (std::size_t i = 0; i < 6; ++i)
        EXPECT_EQ(back.data.at(i), b.at(i));

    const QString csv = dir.filePath("b.csv");
    ASSERT_TRUE(Exporter::saveBuffer(b, {2, 3}, csv, &error)) << error.toStdString();
    const QList<QByteArray> rows = readAll(csv).trimmed().split('\n');
    ASSERT_EQ(rows.size(), 2);
    // Row-major, every value where it belongs: b[i] = 0.5 * i.
    for (int r = 0; r < 2; ++r) {
        const QList<QByteArray> cells = rows[r].trimmed().split(',');
        ASSERT_EQ(cells.size(), 3) << "row " << r;
        for (int c = 0; c < 3; ++c) {
            bool ok = false;
            EXPECT_EQ(cells[c].trimmed().toDouble(&ok), 0.5 * (r * 3 + c)) << "row " << r << " column " << c;
            EXPECT_TRUE(ok) << cells[c].toStdString();
        }
    }
    // And it reads back as the same buffer.
    const NdArray fromCsv = CsvFile::read(csv.toStdString(), DType::F32);
    ASSERT_EQ(fromCsv.data.count(), 6u);
    for (std::size_t i = 0; i < 6; ++i)
        EXPECT_EQ(fromCsv.data.at(i), b.at(i));

    EXPECT_FALSE(Exporter::saveBuffer(b, {}, dir.filePath("b.xyz"), &error));
}
