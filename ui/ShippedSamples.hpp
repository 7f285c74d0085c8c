#pragma once
// The files the samples folder shipped with, by SHA-256 (generated from samples/ at build
// time). A document is a shipped sample when it lies in the samples folder and its bytes
// and every file it brings are among these: a sample a user (or anyone who can write a
// portable install's folder) changed asks for trust like any other document.
#include "doc/TrustManifest.hpp"

#include <QByteArray>

#include <vector>

namespace kw {

class ShippedSamples {
public:
    static bool shipped(const QByteArray& content, const std::vector<BroughtFile>& files);
};

} // namespace kw
