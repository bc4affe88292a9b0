#pragma once
// Writes the Prometheus text exposition format (version 0.0.4): each family's HELP and TYPE
// once, then its samples. Label values are escaped here, so no value a caller passes can
// break the page; which values may become labels at all is the caller's concern (bounded sets).
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "metrics/Histogram.hpp"

namespace svc {

using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class ExpositionWriter {
public:
    // Starts a family; `type` is counter, gauge or histogram.
    void family(const std::string& name, const std::string& type, const std::string& help);
    void sample(const std::string& name, const MetricLabels& labels, double value);
    void sample(const std::string& name, double value) { sample(name, {}, value); }
    // The _bucket, _sum and _count samples of one histogram series.
    void histogram(const std::string& name, const MetricLabels& labels, const Histogram::Snapshot& snapshot);

    std::string text() const { return out_.str(); }

    static std::string escapeLabelValue(const std::string& value);
    static std::string formatValue(double value);

private:
    void writeLabels(const MetricLabels& labels, const std::string& le = "");
    std::ostringstream out_;
};

}  // namespace svc
