# conditional expressions, chained comparisons, identity and membership
from baton import bash, inputs

threshold = inputs.get("threshold", 80)
coverage_text = bash("coverage report --format=total || echo 0").stdout.strip()
coverage = float(coverage_text) if coverage_text.replace(".", "", 1).isdigit() else 0.0
grade = "good" if coverage >= threshold else "poor" if coverage > 50 else "bad"
in_range = 0 <= coverage <= 100
maybe = inputs.get("optional")
print(grade, in_range, maybe is None, maybe is not None, "x" in "xyz", 3 not in [1, 2])
print(not in_range or coverage > 0 and threshold < 100)
