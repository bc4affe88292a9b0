#include "metrics/ExpositionWriter.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace svc {

std::string ExpositionWriter::escapeLabelValue(const std::string& value) {
    std::string escaped;
    for (char c : value) {
        if (c == '\\') escaped += "\\\\";
        else if (c == '"') escaped += "\\\"";
        else if (c == '\n') escaped += "\\n";
        else escaped += c;
    }
    return escaped;
}

std::string ExpositionWriter::formatValue(double value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
    // Integers (counts, bytes) exactly; other values with enough digits to round-trip.
    if (value == std::floor(value) && std::fabs(value) < 9.007199254740992e15) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
        return buffer;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.15g", value);
    if (std::strtod(buffer, nullptr) != value) std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return buffer;
}

void ExpositionWriter::family(const std::string& name, const std::string& type, const std::string& help) {
    out_ << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
}

void ExpositionWriter::writeLabels(const MetricLabels& labels, const std::string& le) {
    if (labels.empty() && le.empty()) return;
    out_ << '{';
    bool first = true;
    for (const auto& [name, value] : labels) {
        out_ << (first ? "" : ",") << name << "=\"" << escapeLabelValue(value) << '"';
        first = false;
    }
    if (!le.empty()) out_ << (first ? "" : ",") << "le=\"" << le << '"';
    out_ << '}';
}

void ExpositionWriter::sample(const std::string& name, const MetricLabels& labels, double value) {
    out_ << name;
    writeLabels(labels);
    out_ << ' ' << formatValue(value) << '\n';
}

void ExpositionWriter::histogram(const std::string& name, const MetricLabels& labels, const Histogram::Snapshot& snapshot) {
    for (size_t i = 0; i < snapshot.upperBounds.size(); ++i) {
        out_ << name << "_bucket";
        writeLabels(labels, formatValue(snapshot.upperBounds[i]));
        out_ << ' ' << snapshot.cumulative[i] << '\n';
    }
    out_ << name << "_bucket";
    writeLabels(labels, "+Inf");
    out_ << ' ' << snapshot.count << '\n';
    sample(name + "_sum", labels, snapshot.sum);
    sample(name + "_count", labels, static_cast<double>(snapshot.count));
}

}  // namespace svc
