@@@ ))) def :: lambda lambda
\
