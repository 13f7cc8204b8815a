cLass 
match x:
 case A:_sses  'sed
    if c
./
