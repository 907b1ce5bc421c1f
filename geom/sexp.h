/* sexp.h: placeholder */
