# Reads a /metrics exposition on standard input with the Prometheus Python client's parsers (the
# text format 0.0.4, or with the argument "openmetrics" the OpenMetrics reference parser) and
# prints its families as JSON: [{"name", "type", "samples": [{"name", "labels", "value"}]}].
# A parse error exits 1 with the parser's message. Used by MetricsOnTheDemoTest.
import json
import sys

if len(sys.argv) > 1 and sys.argv[1] == "openmetrics":
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
else:
    from prometheus_client.parser import text_string_to_metric_families

try:
    families = [
        {
            "name": f.name,
            "type": f.type,
            "samples": [
                {"name": s.name, "labels": dict(s.labels), "value": s.value} for s in f.samples
            ],
        }
        for f in text_string_to_metric_families(sys.stdin.read())
    ]
except Exception as e:  # noqa: BLE001 - any parser error is the answer
    print("parse error: %s" % e, file=sys.stderr)
    sys.exit(1)
json.dump(families, sys.stdout)
