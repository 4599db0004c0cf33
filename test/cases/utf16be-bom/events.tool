0 1:1 warning utf16-input (41): input is UTF-16, read converted to UTF-8 (columns and offsets count in the converted text)
0 1:1 tree-begin
1 1:2 node
2 1:3 property FF
4 1:5 value-begin
5 1:6 value-data "4"
6 1:7 value-end
7 1:8 property-end
7 1:8 tree-end
