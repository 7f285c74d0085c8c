#include "data/HostBuffer.hpp"
#include "views/BufferStats.hpp"
#include "views/LinePlot.hpp"
#include "views/MinMaxDecimator.hpp"
#include "views_test_app.hpp"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <tuple>

using kw::DType;
using kw::HostBuffer;
using kw::MinMaxDecimator;

namespace {

HostBuffer noisySine(std::size_t n, unsigned seed = 7)
{
    HostBuffer b(DType::F32, n);
    std::mt19937 rng(seed);
    std::normal_distribution<float> noise(0.f, 0.3f);
    auto* p = reinterpret_cast<float*>(b.data());
    for (std::size_t i = 0; i < n; ++i)
        p[i] = std::sin(float(i) * 1e-4f) + noise(rng);
    return b;
}

// Every column's true min and max must appear in the output, at their own index.
void expectColumnsPreserved(const HostBuffer& b, double from, double to, int columns)
{
    const auto out = MinMaxDecimator::decimate(b, from, to, columns);
    ASSERT_TRUE(out.decimated);
    ASSERT_LE(out.x.size(), std::size_t(columns) * 2);
    ASSERT_TRUE(std::is_sorted(out.x.begin(), out.x.end()));
    std::size_t i0 = std::size_t(std::max(0.0, std::floor(from)));
    std::size_t i1 = std::min<std::size_t>(b.count() - 1, std::size_t(std::ceil(to)));
    if (i0 > 0)
        --i0;
    if (i1 + 1 < b.count())
        ++i1;
    const std::size_t n = i1 - i0 + 1;
    std::size_t k = 0;
    for (int c = 0; c < columns; ++c) {
        const std::size_t s = i0 + n * std::size_t(c) / std::size_t(columns);
        const std::size_t e = i0 + n * (std::size_t(c) + 1) / std::size_t(columns);
        double mn = std::numeric_limits<double>::infinity(), mx = -mn;
        for (std::size_t i = s; i < e; ++i) {
            mn = std::min(mn, b.at(i));
            mx = std::max(mx, b.at(i));
        }
        double omn = std::numeric_limits<double>::infinity(), omx = -omn;
        for (; k < out.x.size() && out.x[k] < double(e); ++k) {
            ASSERT_GE(out.x[k], double(s));
            EXPECT_EQ(out.y[k], b.at(std::size_t(out.x[k]))) << "point not at its own index";
            omn = std::min(omn, out.y[k]);
            omx = std::max(omx, out.y[k]);
        }
        EXPECT_EQ(omn, mn) << "column " << c;
        EXPECT_EQ(omx, mx) << "column " << c;
    }
    EXPECT_EQ(k, out.x.size());
}

} // namespace

TEST(MinMaxDecimator, KeepsEveryColumnsMinAndMaxOverTheWholeRange)
{
    const HostBuffer b = noisySine(100000);
    expectColumnsPreserved(b, 0, 99999, 640);
}

TEST(MinMaxDecimator, KeepsMinAndMaxOfAZoomedRange)
{
    const HostBuffer b = noisySine(100000, 3);
    expectColumnsPreserved(b, 12345.6, 40000.2, 333);
}

TEST(MinMaxDecimator, KeepsASingleSpikeVisible)
{
    HostBuffer b(DType::F64, 1000000);
    b.set(654321, 1e6);
    b.set(123, -5);
    const auto out = MinMaxDecimator::decimate(b, 0, 999999, 800);
    EXPECT_EQ(*std::max_element(out.y.begin(), out.y.end()), 1e6);
    EXPECT_EQ(*std::min_element(out.y.begin(), out.y.end()), -5);
    const auto spike = std::find(out.y.begin(), out.y.end(), 1e6) - out.y.begin();
    EXPECT_EQ(out.x[std::size_t(spike)], 654321.0);
}

TEST(MinMaxDecimator, ReturnsRawPointsWhenFewAreVisible)
{
    HostBuffer b(DType::I32, 1000);
    for (std::size_t i = 0; i < 1000; ++i)
        b.set(i, double(i % 17));
    const auto out = MinMaxDecimator::decimate(b, 100, 200, 500);
    EXPECT_FALSE(out.decimated);
    ASSERT_EQ(out.x.size(), 103u); // 100..200 and one beyond each end
    EXPECT_EQ(out.x.front(), 99.0);
    EXPECT_EQ(out.x.back(), 201.0);
    for (std::size_t k = 0; k < out.x.size(); ++k)
        EXPECT_EQ(out.y[k], double(std::size_t(out.x[k]) % 17));
}

TEST(MinMaxDecimator, ClampsRangesOutsideTheData)
{
    HostBuffer b(DType::U8, 10);
    for (std::size_t i = 0; i < 10; ++i)
        b.set(i, double(i));
    const auto out = MinMaxDecimator::decimate(b, -50, 50, 100);
    ASSERT_EQ(out.x.size(), 10u);
    EXPECT_EQ(out.x.front(), 0.0);
    EXPECT_EQ(out.x.back(), 9.0);
    EXPECT_TRUE(MinMaxDecimator::decimate(HostBuffer(DType::F32, 0), 0, 1, 10).x.empty());
}

TEST(MinMaxDecimator, SkipsNaNAndMarksAllNaNColumnsAsGaps)
{
    HostBuffer b(DType::F32, 4000);
    for (std::size_t i = 0; i < 4000; ++i)
        b.set(i, i < 2000 ? std::nan("") : double(i));
    const auto out = MinMaxDecimator::decimate(b, 0, 3999, 10);
    ASSERT_TRUE(out.decimated);
    EXPECT_TRUE(std::isnan(out.y.front()));
    EXPECT_EQ(out.y.back(), 3999.0);
    EXPECT_EQ(out.x.back(), 3999.0);
}

TEST(MinMaxDecimator, BlockSummaryGivesTheSameOutputAsAFullScan)
{
    auto b = std::make_shared<HostBuffer>(noisySine(300'001, 11));
    b->set(777, std::nan(""));
    b->set(150'000, 50); // a spike inside a whole block
    const MinMaxDecimator d(b);
    for (auto [from, to, cols] :
         {std::tuple{0.0, 300000.0, 1000}, std::tuple{10.5, 299990.2, 777}, std::tuple{149'000.0, 151'000.0, 300},
          std::tuple{-100.0, 1e9, 64}, std::tuple{5000.0, 5100.0, 800}}) {
        const auto fast = d.decimate(from, to, cols);
        const auto full = MinMaxDecimator::decimate(*b, from, to, cols);
        EXPECT_EQ(fast.x, full.x) << from << ".." << to;
        EXPECT_EQ(fast.y.size(), full.y.size());
        for (std::size_t k = 0; k < fast.y.size() && k < full.y.size(); ++k)
            EXPECT_TRUE(fast.y[k] == full.y[k] || (std::isnan(fast.y[k]) && std::isnan(full.y[k])));
    }
}

TEST(MinMaxDecimator, SampledPreviewStaysWithinTheData)
{
    const HostBuffer b = noisySine(1'000'000, 5);
    const auto exact = MinMaxDecimator::decimate(b, 0, 999'999, 500);
    const auto quick = MinMaxDecimator::decimateSampled(b, 0, 999'999, 500, 10'000);
    ASSERT_TRUE(quick.decimated);
    ASSERT_LE(quick.x.size(), 1000u);
    const auto [emin, emax] = std::minmax_element(exact.y.begin(), exact.y.end());
    for (std::size_t k = 0; k < quick.x.size(); ++k) {
        EXPECT_EQ(quick.y[k], b.at(std::size_t(quick.x[k])));
        EXPECT_GE(quick.y[k], *emin);
        EXPECT_LE(quick.y[k], *emax);
    }
}

// How long this takes is measured by tests/bench/bench_plot.cpp.
TEST(MinMaxDecimator, TenMillionPointsDecimateToTheColumnEnvelope)
{
    auto b = std::make_shared<HostBuffer>(noisySine(10'000'000));
    const MinMaxDecimator d(b);
    const auto out = d.decimate(0, 9'999'999, 1920); // everything visible: the worst case
    ASSERT_LE(out.x.size(), 3840u);
    ASSERT_GE(out.x.size(), 1920u);
    ASSERT_EQ(out.x.size(), out.y.size());
    // The decimated points are real samples, and the envelope holds the extremes.
    const auto* p = reinterpret_cast<const float*>(b->data());
    for (std::size_t k = 0; k < out.x.size(); ++k)
        ASSERT_EQ(out.y[k], p[std::size_t(out.x[k])]) << "point " << k;
    const auto [lo, hi] = std::minmax_element(p, p + b->count());
    EXPECT_EQ(*std::min_element(out.y.begin(), out.y.end()), *lo);
    EXPECT_EQ(*std::max_element(out.y.begin(), out.y.end()), *hi);
}

TEST(LinePlot, DrawsAtMostTwoPointsPerColumnAndRefinesOnZoom)
{
    kw::test::app();
    auto data = std::make_shared<HostBuffer>(noisySine(2'000'000));
    kw::LinePlot plot;
    plot.resize(800, 400);
    plot.show();
    QApplication::processEvents();
    plot.setBuffer(data, "y");
    // A sampled preview first; the exact envelope once the worker's summary arrives.
    EXPECT_GT(plot.drawnPointCount(), 0);
    ASSERT_TRUE(QTest::qWaitFor([&] { return plot.isExact(); }, 10000));
    plot.plot()->replot();
    EXPECT_LE(plot.drawnPointCount(), 2 * plot.plot()->width());
    EXPECT_GT(plot.drawnPointCount(), plot.plot()->width() / 2);

    // Zoomed in to 300 elements: every element is drawn, exactly.
    plot.plot()->xAxis->setRange(1000, 1299);
    plot.plot()->replot();
    EXPECT_EQ(plot.drawnPointCount(), 302);
    auto it = plot.plot()->graph(0)->data()->findBegin(1000.0, false);
    EXPECT_EQ(it->key, 1000.0);
    EXPECT_EQ(it->value, data->at(1000));

    // The y range after a reset covers the data's min and max, spike included.
    data->set(1'234'567, 40.0);
    plot.setBuffer(data, "y");
    ASSERT_TRUE(QTest::qWaitFor([&] { return plot.isExact(); }, 10000));
    const kw::BufferStats s = kw::BufferStats::compute(*data);
    EXPECT_LE(plot.plot()->yAxis->range().lower, s.min);
    EXPECT_GE(plot.plot()->yAxis->range().upper, s.max);
}
