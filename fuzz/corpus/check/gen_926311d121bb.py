def f():
    pas/_s//_///)
sswd'))
