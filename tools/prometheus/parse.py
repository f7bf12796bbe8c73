"""Reads a Prometheus text exposition on standard input with the official client's parser and
writes its families as JSON: what the tests check the /metrics answer with."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

families = [
    {
        "name": family.name,
        "type": family.type,
        "samples": [
            {"name": sample.name, "labels": sample.labels, "value": sample.value}
            for sample in family.samples
        ],
    }
    for family in text_string_to_metric_families(sys.stdin.read())
]
json.dump(families, sys.stdout)
