#!/bin/bash
# report.sh: how many items the shop holds in all.
awk -F, 'NR > 1 { n += $2 } END { print "items in stock: " n }' inventory.csv
