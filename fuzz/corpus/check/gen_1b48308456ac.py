class  g(A):
 ca
