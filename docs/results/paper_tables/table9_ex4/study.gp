# bsde study: ex4, the paper's figures (error of y and z, speedup against N per K).
# Written by bsde study with the data inline; run in this folder: gnuplot study.gp
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 900,640 enhanced font "sans,12"
} else {
    set terminal png size 900,640
}
set datafile missing "?"
$K1 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.316303e-02 1.639736e-03 6.330179e+00 2.261029e+00
16 6.463576e-03 3.310823e-03 1.316989e+01 3.340731e+00
32 3.177464e-03 2.313526e-03 3.088696e+01 1.474613e+01
64 1.571899e-03 1.312787e-03 6.912865e+01 8.069751e+00
EOD
$K2 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.831853e-03 6.413286e-03 2.932670e+01 3.477924e+00
16 5.511838e-04 1.777942e-03 8.620053e+01 8.555738e+00
32 1.485000e-04 4.665519e-04 2.278885e+02 2.053556e+01
64 3.841184e-05 1.192412e-04 4.599269e+02 4.725740e+01
EOD
$K3 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 3.941193e-04 1.012460e-03 7.414731e+01 1.024398e+01
16 6.750089e-05 1.472136e-04 2.378007e+02 3.373446e+01
32 9.723086e-06 1.972245e-05 6.591320e+02 7.092684e+01
64 1.301343e-06 2.547028e-06 ? 1.202980e+02
EOD
$K4 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.898295e-04 5.717116e-04 8.332902e+01 1.166100e+01
16 3.782016e-05 8.736148e-05 2.977290e+02 3.660573e+01
32 5.689461e-06 1.183666e-05 ? 7.708855e+01
64 7.756461e-07 1.535657e-06 ? ?
EOD
$K5 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 1.392432e-04 5.293873e-04 8.692499e+01 1.163205e+01
16 3.649034e-05 9.180451e-05 2.771491e+02 3.466246e+01
32 5.994912e-06 1.294146e-05 ? 7.656754e+01
64 8.478848e-07 1.709440e-06 ? ?
EOD
$K6 << EOD
# N  y_error  z_error  speedup_cuda_serial  speedup_cuda_omp
8 8.125926e-05 4.224111e-04 9.108119e+01 1.203925e+01
16 3.069620e-05 8.367650e-05 3.399391e+02 3.940667e+01
32 5.491078e-06 1.223882e-05 ? 8.588012e+01
64 7.996271e-07 1.637165e-06 ? ?
EOD
set logscale x 2
set xtics (8, 16, 32, 64)
set xrange [6.66667:76.8]
set xlabel "N (time steps)"
set grid
set key outside right top

set output "y_error.png"
set title "ex4: error of y_0 against N, K = K_y = K_z"
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
set title "ex4: error of z_0 against N, K = K_y = K_z"
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
set title "ex4: speedup of cuda over serial"
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
set title "ex4: speedup of cuda over omp"
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
