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
8 8.435332e-03 1.074099e-02 6.021816e+00 7.211958e-01
16 2.827201e-03 4.996706e-03 1.101268e+01 1.536655e+00
32 9.060728e-04 2.360175e-03 2.097336e+01 2.070398e+00
64 3.730999e-04 1.181712e-03 4.498238e+01 4.468713e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 7.539821e-04 2.522251e-04 1.775610e+01 1.886674e+00
16 1.328429e-04 3.218187e-05 4.629167e+01 4.544464e+00
32 1.643430e-05 4.034578e-06 7.187419e+01 5.157484e+00
64 2.346565e-06 9.138012e-07 1.096475e+02 7.054347e+00
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.229460e-04 1.541377e-04 5.384715e+01 4.978652e+00
16 8.285814e-06 1.836828e-05 9.094832e+01 6.077965e+00
32 6.173775e-07 2.107401e-06 ? 9.469760e+00
64 5.911909e-08 2.962412e-07 ? 1.339500e+01
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.102132e-04 1.332417e-04 5.939294e+01 5.047816e+00
16 7.975954e-06 1.640209e-05 ? 6.291350e+00
32 5.999990e-07 1.841218e-06 ? 1.009095e+01
64 6.009650e-08 2.589299e-07 ? ?
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.179481e-04 1.374235e-04 6.077814e+01 5.233726e+00
16 1.408922e-04 1.708621e-05 ? 6.629620e+00
32 4.958305e-07 1.904112e-06 ? 1.063925e+01
64 5.508111e-08 2.665740e-07 ? ?
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 3.569041e-05 1.331031e-04 6.418185e+01 5.561498e+00
16 8.135353e-06 1.713669e-05 ? 7.138847e+00
32 2.399361e-07 1.906272e-06 ? ?
64 5.244823e-08 2.636890e-07 ? ?
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
     $K5 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 5", \
     $K6 using 1:4 with linespoints lw 2 pt 7 ps 1.2 title "K = 6"

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
