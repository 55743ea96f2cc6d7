# bsde study: ex5, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 2.741123e-03 9.511830e-03 6.627205e+01 4.775371e+00
16 1.162135e-03 4.743594e-03 7.410637e+01 5.696982e+00
32 4.962021e-04 2.362315e-03 9.197460e+01 1.801332e+01
64 2.611680e-04 1.181621e-03 1.184740e+02 1.013153e+01
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 6.090166e-05 5.332824e-05 2.237207e+02 1.450152e+01
16 2.811856e-05 1.485742e-05 2.934330e+02 2.207005e+01
32 3.419089e-06 3.774200e-06 4.877067e+02 3.677722e+01
64 7.512211e-07 9.013809e-07 6.403800e+02 4.971408e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 9.919651e-06 2.517544e-05 4.035924e+02 2.858826e+01
16 2.046146e-07 9.152372e-07 5.929991e+02 5.000272e+01
32 1.113501e-07 1.291161e-07 ? 8.506481e+01
64 1.839507e-08 1.858069e-08 ? 1.252334e+02
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.569967e-06 3.190308e-05 3.247647e+02 3.016774e+01
16 6.606283e-07 8.508161e-07 ? 5.629064e+01
32 5.420481e-08 1.707560e-07 ? 8.960310e+01
64 1.023321e-08 1.744451e-08 ? ?
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.631641e-05 4.460774e-05 3.835773e+02 3.170137e+01
16 1.517760e-04 1.039883e-06 ? 5.754281e+01
32 1.220080e-09 2.132444e-07 ? 9.321380e+01
64 1.736261e-08 1.925908e-08 ? ?
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 6.347557e-05 4.935244e-05 ? 2.751890e+01
16 9.725938e-07 1.147271e-06 ? 5.956960e+01
32 9.570138e-07 2.536774e-07 ? 9.545163e+01
64 1.379367e-08 1.939385e-08 ? ?
EOD
set logscale x 2
set xtics (8, 16, 32, 64)
set xrange [6.66667:76.8]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "ex5: error of y_0 against N, K = K_y = K_z"
set ylabel "|y_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:2 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "z_error.png"
set title "ex5: error of z_0 against N, K = K_y = K_z"
set ylabel "|z_0 error|"
set logscale y 10
set format y "10^{%L}"
set autoscale y
set offsets 0, 0, 0, 0
plot $K1 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:3 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

set output "speedup_cuda_serial.png"
set title "ex5: speedup of cuda over serial"
set ylabel "speedup (serial time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 5"

set output "speedup_cuda_omp.png"
set title "ex5: speedup of cuda over omp"
set ylabel "speedup (omp time / cuda time)"
unset logscale y
set format y "%g"
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot $K1 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 1", \
     $K2 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 2", \
     $K3 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 3", \
     $K4 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 4", \
     $K5 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:5 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"
unset output
